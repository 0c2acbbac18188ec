#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's threads table: issue 38's workloads natively with one thread
# and with two (`--threads`), taking turns (each first in every other round), the median of
# $RUNS (default 5) runs each, after a run that builds each solver; the speedup is one
# thread's median over two threads'. (A median, not the best: on a shared machine the best
# one-thread run is a quiet moment for one core, and two threads need both quiet.) The two
# answers must be equal (the script stops otherwise).
#   scripts/threads.sh [CORPUS_DIR]
set -euo pipefail
corpus=$(cd "${1:-$(dirname "$0")/../../shared/corpus}" && pwd)
source "$(dirname "$0")/common.sh"
runs=${RUNS:-5}
limit=${LIMIT:-600}

cat > "$tmp/queen.cgdl" <<CGDL
game Queen(r: 0..1000, c: 0..1000) {
    move west(k in 1..=c) => Queen(r, c - k)
    move north(k in 1..=r) => Queen(r - k, c)
    move northwest(k in 1..=min(r, c)) => Queen(r - k, c - k)
}
value grundy of Queen(999, 999)
CGDL
sized "$corpus/cram_closure.cgdl" 5 6 "$tmp/cram_closure.cgdl"
grep '^value\|^table' "$corpus/cram_closure.cgdl" >> "$tmp/cram_closure.cgdl"
sized "$corpus/cram_closure.cgdl" 5 7 "$tmp/cram_closure57.cgdl"
grep '^value\|^table' "$corpus/cram_closure.cgdl" >> "$tmp/cram_closure57.cgdl"
sized examples/cram.cgdl 5 6 "$tmp/cram.cgdl"
echo 'value grundy of Cram(Cell)' >> "$tmp/cram.cgdl"
sized examples/cram.cgdl 5 7 "$tmp/cram57.cgdl"
echo 'value grundy of Cram(Cell)' >> "$tmp/cram57.cgdl"
sized examples/dots_lines.cgdl 4 5 "$tmp/dots.cgdl"
grep -v '^ *symmetry' "$tmp/dots.cgdl" > "$tmp/dots_plain.cgdl"
echo 'value outcome of Dots({})' >> "$tmp/dots_plain.cgdl"
sized "$corpus/dots_pairs.cgdl" 4 5 "$tmp/dots_pairs.cgdl"
grep '^value\|^table' "$corpus/dots_pairs.cgdl" >> "$tmp/dots_pairs.cgdl"
sized examples/dots_lines.cgdl 5 6 "$tmp/dots56.cgdl"
grep -v '^ *symmetry' "$tmp/dots56.cgdl" > "$tmp/dots56_plain.cgdl"
echo 'value outcome of Dots({})' >> "$tmp/dots56_plain.cgdl"
sized examples/domineering.cgdl 5 5 "$tmp/domineering.cgdl"
echo 'value canonical of Domineering(rect(5, 5))' >> "$tmp/domineering.cgdl"
printf 'game O = octal "0.14"\nvalue grundy of O(1000000)\n' > "$tmp/octal.cgdl"
printf 'game O = octal "0.76"\nvalue grundy of O(100000)\n' > "$tmp/naive.cgdl"

echo "| workload | answer | 1 thread | 2 threads | speedup |"
echo "|---|---|---|---|---|"
row() {
    local label=$1 file=$2 one= two= answer= t got
    $cgdl run --native "$file" --max-positions 1 > /dev/null 2>&1 || true
    # One thread first in odd rounds, two threads first in even ones: a run after another
    # is not favoured.
    for r in $(seq "$runs"); do
        for threads in $( ((r % 2)) && echo 1 2 || echo 2 1); do
            t=$(best_of 1 "$limit" $cgdl run --native --threads "$threads" "$file")
            case $t in '>'*)
                echo "| $label | - | $threads threads: $t s | | |"
                return
                ;;
            esac
            if [ "$threads" = 1 ]; then one="$one $t"; else two="$two $t"; fi
            got=$(awk '/^  / { v = $2 } END { print v }' "$tmp/out")
            [ -z "${answer:-}" ] && answer=$got
            [ "$got" = "$answer" ] || {
                echo "error: $label answers $got with $threads threads, $answer before" >&2
                exit 1
            }
        done
    done
    one=$(median $one) two=$(median $two)
    echo "| $label | $answer | $one s | $two s | $(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", a / b }') |"
}
# `median T...`: the middle of the times (the mean of the two middle ones where they are even).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = (NR + 1) / 2; printf "%.3f", (v[int(m)] + v[int(m + 0.5)]) / 2 }'; }
row "Queen Grundy grid 1000 × 1000" "$tmp/queen.cgdl"
row "Cram 5 × 6, corpus cram_closure" "$tmp/cram_closure.cgdl"
row "Cram 5 × 6, examples/cram.cgdl" "$tmp/cram.cgdl"
row "Cram 5 × 7, corpus cram_closure" "$tmp/cram_closure57.cgdl"
row "Cram 5 × 7, examples/cram.cgdl" "$tmp/cram57.cgdl"
row "natural dots 4 × 5 (examples/dots_lines.cgdl), no symmetry line" "$tmp/dots_plain.cgdl"
row "natural dots 4 × 5, corpus dots_pairs (lines as pairs of dots)" "$tmp/dots_pairs.cgdl"
row "natural dots 5 × 6 (4 × 5 boxes), no symmetry line" "$tmp/dots56_plain.cgdl"
row "octal 0.14 to 10^6" "$tmp/octal.cgdl"
row "Domineering 5 × 5, canonical form" "$tmp/domineering.cgdl"
row "octal 0.76 to 10^5 (naive splits)" "$tmp/naive.cgdl"
