#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's "natural vs tuned" table: games written the obvious way
# (lines as a tagged union, boxes and cells as tuple types) against the same games written
# by hand for speed (numbered lines and cells), natively, best of three runs each.
#   scripts/natural_vs_tuned.sh            4×4, 4×5 dots; 4×5, 5×5, 5×6 Cram; last, 4×5 dots
#                                          against the tuned dots without its shortcut
#                                          (about three minutes)
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs=${RUNS:-3}

# Best time (seconds) of $runs runs of `cgdl run FILE`, after one run that builds it.
best() {
    $cgdl run "$1" > /dev/null 2>&1 || { echo "failed: $1" >&2; $cgdl run "$1" >&2; exit 1; }
    local best=
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o "$tmp/t" $cgdl run "$1" > /dev/null
        best=$(awk -v a="$(cat "$tmp/t")" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    echo "$best"
}

# The natural dots of examples/dots_lines.cgdl on an R × C board, its empty board only.
natural_dots() {
    sized examples/dots_lines.cgdl "$1" "$2" "$tmp/natural.cgdl"
    echo 'value outcome of Dots({})' >> "$tmp/natural.cgdl"
}
tuned_dots() {
    sed -e '/^value\|^table/d' examples/degenerate_dots.cgdl > "$tmp/tuned.cgdl"
    echo "value outcome of Dots($1, $2, {})" >> "$tmp/tuned.cgdl"
}
# The tuned dots without its hand-made `Threat` shortcut (a line that leaves a three-sided
# box goes to the board itself), compared with the natural dots in the last row.
natural_unshortcut() { natural_dots "$@"; }
tuned_unshortcut() {
    sed -e '/^value\|^table/d' -e 's/else if most == 3 then Threat//' \
        examples/degenerate_dots.cgdl > "$tmp/tuned.cgdl"
    echo "value outcome of Dots($1, $2, {})" >> "$tmp/tuned.cgdl"
}
# (Without its symmetries: this table compares descriptions of the same search.)
natural_cram() {
    sized examples/cram.cgdl "$1" "$2" "$tmp/sized.cgdl"
    grep -v '^ *symmetry' "$tmp/sized.cgdl" > "$tmp/natural.cgdl"
    echo 'value outcome of Cram(Cell)' >> "$tmp/natural.cgdl"
}
# Cram with cells numbered by hand: cell (r, c) is r * C + c.
tuned_cram() {
    cat > "$tmp/tuned.cgdl" <<CGDL
const R = $1
const C = $2
game Cram(empty: set<0..(R * C)>) {
    move across(i in empty, i % C + 1 < C, i + 1 in empty) => Cram(empty - {i, i + 1})
    move down(i in empty, i + C in empty) => Cram(empty - {i, i + C})
}
value outcome of Cram(0..(R * C))
CGDL
}

echo "| game | board | natural | tuned | natural / tuned |"
echo "|---|---|---|---|---|"
row() {
    local game=$1 r=$2 c=$3
    "natural_$game" "$r" "$c"
    "tuned_$game" "$r" "$c"
    local n t
    n=$(best "$tmp/natural.cgdl")
    t=$(best "$tmp/tuned.cgdl")
    echo "| $game | $r × $c | $n s | $t s | $(awk -v n="$n" -v t="$t" 'BEGIN { printf "%.2f", n / t }') |"
}
row dots 4 4
row dots 4 5
row cram 4 5
row cram 5 5
row cram 5 6
row unshortcut 4 5
