#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's corpus table: the natural descriptions of ../shared/corpus/
# (no symmetry line, regions as closures, bites as comprehensions), natively, each against
# its best description in examples/ where there is one and against Beling's igsolve
# (installed into target/peers the first time), in one run: the best of $RUNS (default 3)
# runs each, after a run that builds the solver. A run past $LIMIT seconds (default 120)
# is shown as "> LIMIT s".
#   scripts/corpus.sh [CORPUS_DIR]
set -euo pipefail
corpus=$(cd "${1:-$(dirname "$0")/../../shared/corpus}" && pwd)
source "$(dirname "$0")/common.sh"
igsolve=target/peers/bin/igsolve
[ -x "$igsolve" ] || cargo install -q igsolve --root target/peers
runs=${RUNS:-3}
limit=${LIMIT:-120}

# `cgdl run FILE`, built first; prints "seconds|value".
cgdl_time() {
    $cgdl run --native "$1" --max-positions 1 > /dev/null 2>&1 || true
    local t
    t=$(best_of "$runs" "$limit" $cgdl run --native "$1") || true
    echo "$t|$(awk '/^  (grundy|outcome)/ { v = $2 } END { print v }' "$tmp/out")"
}
ratio() { awk -v n="$1" -v t="$2" 'BEGIN { if (n ~ />/ || t ~ />/ || t <= 0) print "-"; else printf "%.1f", n / t }'; }

echo "| description | board | value | cgdl natural | cgdl example | peer | natural / peer |"
echo "|---|---|---|---|---|---|---|"
row() {
    local name=$1 r=$2 c=$3 peer=$4
    sized "$corpus/$name.cgdl" "$r" "$c" "$tmp/natural.cgdl"
    grep '^value\|^table' "$corpus/$name.cgdl" >> "$tmp/natural.cgdl"
    IFS='|' read -r n value < <(cgdl_time "$tmp/natural.cgdl")
    local e="-"
    case $name in
        cram_closure)
            sized examples/cram.cgdl "$r" "$c" "$tmp/example.cgdl"
            echo 'value grundy of Cram(Cell)' >> "$tmp/example.cgdl"
            e=$(cgdl_time "$tmp/example.cgdl" | cut -d'|' -f1) ;;
        dots_pairs)
            sed -e '/^value\|^table/d' examples/degenerate_dots.cgdl > "$tmp/example.cgdl"
            echo "value outcome of Dots($r, $c, {})" >> "$tmp/example.cgdl"
            e=$(cgdl_time "$tmp/example.cgdl" | cut -d'|' -f1) ;;
    esac
    local p="-"
    case $peer in
        cram) p=$(best_of "$runs" "$limit" "$igsolve" cram -r "$r" -c "$c") || true ;;
        chomp) p=$(best_of "$runs" "$limit" "$igsolve" chomp -r "$r" -c "$c") || true ;;
    esac
    echo "| ${name//_/ } | $r × $c | $value | $n s | $e s | $p s | $(ratio "$n" "$p") |"
}
for rc in "3 4" "4 5" "5 5" "5 6"; do row cram_closure $rc cram; done
for rc in "3 4" "4 5" "7 7" "10 10"; do row chomp $rc chomp; done
for rc in "3 4" "4 4" "4 5" "5 5"; do row dots_pairs $rc -; done
for rc in "3 4" "4 4" "4 5" "5 5"; do row node_kayles_grid $rc -; done
