#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's corpus table: the natural descriptions of ../shared/corpus/
# that no peer solves (dots as pairs of dots, Node Kayles on a grid; Cram and Chomp are
# scripts/idioms.sh's, against igsolve), natively, each against its best description in
# examples/ where there is one, in one run: the best of $RUNS (default 3) runs each, taking
# turns, after a run that builds each solver. A run past $LIMIT seconds (default 120) is
# shown as "> LIMIT s".
#   scripts/corpus.sh [CORPUS_DIR]
set -euo pipefail
corpus=$(cd "${1:-$(dirname "$0")/../../shared/corpus}" && pwd)
source "$(dirname "$0")/common.sh"
runs=${RUNS:-3}
limit=${LIMIT:-120}

# The lesser of two times ("" is none yet; "> LIMIT", a stopped run, beats nothing).
least() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (b == "" || b ~ />|failed/) print a; else if (a ~ />|failed/) print b
        else print (a + 0 < b + 0) ? a : b }'
}
# One more timed run of a command whose best so far is $1: the new best. A command stopped
# at the limit, or failed, is not run again.
again() {
    local best=$1
    shift
    case $best in
        ">"* | failed) echo "$best" ;;
        *) least "$(best_of 1 "$limit" "$@" || true)" "$best" ;;
    esac
}
ratio() { awk -v n="$1" -v t="$2" 'BEGIN { if (n ~ />|failed/ || t ~ />|failed/ || t <= 0) print "-"; else printf "%.1f", n / t }'; }

echo "| description | board | value | cgdl natural | cgdl example | natural / example |"
echo "|---|---|---|---|---|---|"
# One row: the natural description and the example, each built first (not timed), then
# run in turn $RUNS times (so that a burst of load on this shared machine falls on both
# alike), the best of each kept.
row() {
    local name=$1 r=$2 c=$3 example= file=$corpus/$1.cgdl
    sized "$file" "$r" "$c" "$tmp/natural.cgdl"
    grep '^value\|^table' "$file" >> "$tmp/natural.cgdl"
    case $name in
        dots_pairs)
            sed -e '/^value\|^table/d' examples/degenerate_dots.cgdl > "$tmp/example.cgdl"
            echo "value outcome of Dots($r, $c, {})" >> "$tmp/example.cgdl"
            example=yes ;;
    esac
    $cgdl run --native --threads "$threads" "$tmp/natural.cgdl" --max-positions 1 > /dev/null 2>&1 || true
    [ -n "$example" ] && { $cgdl run --native --threads "$threads" "$tmp/example.cgdl" --max-positions 1 > /dev/null 2>&1 || true; }
    local n= e= value=
    for _ in $(seq "$runs"); do
        n=$(again "$n" $cgdl run --native --threads "$threads" "$tmp/natural.cgdl")
        [ -n "$value" ] || value=$(awk '/^  (grundy|outcome)/ { v = $2 } END { print v }' "$tmp/out")
        [ -n "$example" ] && e=$(again "$e" $cgdl run --native --threads "$threads" "$tmp/example.cgdl")
    done
    echo "| ${name//_/ } | $r × $c | $value | $n s | ${e:--} s | $(ratio "$n" "${e:--}") |"
}
for rc in "3 4" "4 4" "4 5" "5 5"; do row dots_pairs $rc -; done
for rc in "3 4" "4 4" "4 5" "5 5"; do row node_kayles_grid $rc -; done
