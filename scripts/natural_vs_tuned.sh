#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's "natural vs tuned" table: games written the obvious way
# (lines as a tagged union, boxes and cells as tuple types) against the same games written
# by hand for speed (numbered lines and cells), natively, best of three runs each.
#   scripts/natural_vs_tuned.sh            4×4, 4×5, 5×5 dots as the examples are (with their
#                                          symmetries); 4×4, 4×5 dots without symmetries;
#                                          4×5, 5×5, 5×6 Cram; last, the tuned 4×5 dots
#                                          against the same with a hand-made shortcut (both
#                                          without symmetries); and the shortcut's rules with a
#                                          value written twice against a `let` (4×4 dots;
#                                          about four minutes in all)
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs=${RUNS:-3}

# Best time (seconds, to the millisecond) of $runs runs of `cgdl run FILE`, after one run
# that builds it.
best() {
    $cgdl run --native "$1" > /dev/null 2>&1 || { echo "failed: $1" >&2; $cgdl run --native "$1" >&2; exit 1; }
    best_of "$runs" 600 $cgdl run --native "$1"
}

# `FILE` without its `symmetry` lines.
plain() { grep -v '^ *symmetry' "$1" > "$1.plain"; mv "$1.plain" "$1"; }
# The natural dots of examples/dots_lines.cgdl on an R × C board, its empty board only.
natural_dots() {
    sized examples/dots_lines.cgdl "$1" "$2" "$tmp/natural.cgdl"
    echo 'value outcome of Dots({})' >> "$tmp/natural.cgdl"
}
tuned_dots() {
    sed -e '/^value\|^table/d' examples/degenerate_dots.cgdl > "$tmp/tuned.cgdl"
    echo "value outcome of Dots($1, $2, {})" >> "$tmp/tuned.cgdl"
}
# The same without the examples' symmetries (a search without the order they give).
natural_plain_dots() { natural_dots "$@"; plain "$tmp/natural.cgdl"; }
tuned_plain_dots() { tuned_dots "$@"; plain "$tmp/tuned.cgdl"; }
# The last row: the tuned example (no shortcut) against the same rules with the hand-made
# `Threat` shortcut the example had until 2026-11-25 (a line that leaves a box with three
# sides drawn goes to one position, `Threat`, which only completes the box).
natural_shortcut() { tuned_plain_dots "$@"; mv "$tmp/tuned.cgdl" "$tmp/natural.cgdl"; }
tuned_shortcut() {
    cat > "$tmp/tuned.cgdl" <<'CGDL'
fn hline(cols: nat, r: nat, c: nat) -> nat = r * (cols - 1) + c
fn vline(rows: nat, cols: nat, r: nat, c: nat) -> nat = rows * (cols - 1) + r * cols + c
fn line_count(rows: nat, cols: nat) -> nat = rows * (cols - 1) + (rows - 1) * cols
fn sides(rows: nat, cols: nat, b: nat) -> set<nat> =
    let i = b / (cols - 1) in
    let j = b % (cols - 1) in
    {hline(cols, i, j), hline(cols, i + 1, j), vline(rows, cols, i, j), vline(rows, cols, i, j + 1)}

fn boxes_of(rows: nat, cols: nat, l: nat) -> set<nat> =
    if l < rows * (cols - 1) then
        let r = l / (cols - 1) in
        { i * (cols - 1) + l % (cols - 1) for i in max(r, 1) - 1..=min(r, rows - 2) }
    else
        let v = l - rows * (cols - 1) in
        let c = v % cols in
        { (v / cols) * (cols - 1) + j for j in max(c, 1) - 1..=min(c, cols - 2) }

fn most_sides(rows: nat, cols: nat, drawn: set<nat>, l: nat) -> nat =
    max({ len(sides(rows, cols, b) & (drawn | {l})) for b in boxes_of(rows, cols, l) })

game Threat() {
    move complete() => end
}

game Dots(rows: 2..=5, cols: 2..=5, drawn: set<0..40>) {
    move draw(l in 0..line_count(rows, cols), l not in drawn) =>
        let most = most_sides(rows, cols, drawn, l) in
        if most == 4 then end
        else if most == 3 then Threat
        else Dots(rows, cols, drawn | {l})
}
CGDL
    echo "value outcome of Dots($1, $2, {})" >> "$tmp/tuned.cgdl"
}
# The same rules with the shared value written out twice, as a newcomer writes it: the
# compiler computes `most_sides(...)` once (compiler/src/ir/share.rs).
tuned_repeated() { tuned_shortcut "$@"; }
natural_repeated() {
    tuned_shortcut "$@"
    sed -e '/let most = most_sides(rows, cols, drawn, l) in/d' \
        -e 's/if most == /if most_sides(rows, cols, drawn, l) == /' "$tmp/tuned.cgdl" > "$tmp/natural.cgdl"
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
    echo "| ${game//_/ } | $r × $c | $n s | $t s | $(awk -v n="$n" -v t="$t" 'BEGIN { if (t > 0) printf "%.2f", n / t; else print "–" }') |"
}
row dots 4 4
row dots 4 5
row dots 5 5
row plain_dots 4 4
row plain_dots 4 5
row cram 4 5
row cram 5 5
row cram 5 6
row shortcut 4 5
row repeated 4 4
