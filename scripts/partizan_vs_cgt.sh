#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's partizan table: canonical forms of Domineering rectangles
# from examples/domineering.cgdl (native) against cgt, the Rust crate inside the Python
# package cgt-py, timed in the same run on the same shapes, best of $RUNS runs each.
#   scripts/partizan_vs_cgt.sh        (installs cgt-py into target/cgt-venv the first time)
# cgt's times are the canonical_form calls alone, timed inside Python, each shape in a fresh
# process so that none reuses another's work (the last row excepted: one process for all
# shapes, like cgdl's one table query). cgdl's solve time is a whole `cgdl run` of the
# query less a run of the same solver on the empty board (start-up, reading the cached
# solver); the whole run is shown too.
set -euo pipefail
source "$(dirname "$0")/common.sh"
venv=target/cgt-venv
if ! "$venv/bin/python" -c 'import cgt_py' 2> /dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q cgt-py anywidget
fi
runs=${RUNS:-5}

# The example on an R × C board, asking for `query` alone.
board() {
    sized examples/domineering.cgdl "$1" "$2" "$tmp/d.cgdl"
    echo "$3" >> "$tmp/d.cgdl"
}
# Best of $runs wall times of `cgdl run`, after a run that builds the solver.
cgdl_best() {
    $cgdl run --native --threads "$threads" "$tmp/d.cgdl" > /dev/null
    DIGITS=4 best_of "$runs" 600 $cgdl run --native --threads "$threads" "$tmp/d.cgdl"
}
# Best of $runs times of cgt's canonical forms of the shapes "r×c r×c ...", in seconds.
cgt_best() {
    local best=
    for _ in $(seq "$runs"); do
        t=$("$venv/bin/python" - "$tmp/cgt_form" "$@" <<'PY'
import sys, time, cgt_py
shapes = [tuple(map(int, s.split('x'))) for s in sys.argv[2:]]
start = time.perf_counter()
forms = [str(cgt_py.Domineering('|'.join(['.' * c] * r)).canonical_form) for r, c in shapes]
print(f"{time.perf_counter() - start:.4f}")
with open(sys.argv[1], "w") as f:
    f.write(forms[-1].removeprefix("CanonicalForm('").removesuffix("')"))
PY
        )
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    echo "$best"
}
ratio() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.2f", n / t; else print "-" }'; }

# The start-up of one board's solver: a run on its empty board.
start_up() {
    board "$1" "$2" "value canonical of Domineering(rect(0, 0))"
    cgdl_best
}
# (The least is computed apart: in awk, `printf ..., (d > x ? ...)` writes to a file named x.)
solve() { awk -v n="$1" -v s="$2" 'BEGIN { d = n - s; if (d < 0.0001) d = 0.0001; printf "%.4f", d }'; }

echo "| shapes | cgdl solve | cgdl run | cgt | cgdl solve / cgt | rectangles per second (cgdl solve) | same form |"
echo "|---|---|---|---|---|---|---|"
for shape in 3x3 3x4 4x4 4x5 5x4 5x5; do
    r=${shape%x*}
    c=${shape#*x}
    s=$(start_up "$r" "$c")
    board "$r" "$c" "value canonical of Domineering(rect($r, $c))"
    n=$(cgdl_best)
    form=$(sed -n 's/^  canonical  //p' "$tmp/out")
    d=$(solve "$n" "$s")
    t=$(cgt_best "$shape")
    same=$([ "$form" = "$(cat "$tmp/cgt_form")" ] && echo yes || echo "no: $form")
    echo "| $r × $c | $d s | $n s | $t s | $(ratio "$d" "$t") | $(awk -v n="$d" 'BEGIN { printf "%.0f", 1 / n }') | $same |"
done
# Every rectangle up to 4 × 5, one process each side.
s=$(start_up 4 5)
board 4 5 "table canonical of Domineering(rect(r, c)) for r in 1..=4, c in 1..=5"
n=$(cgdl_best)
d=$(solve "$n" "$s")
shapes=$(for r in 1 2 3 4; do for c in 1 2 3 4 5; do echo -n "${r}x$c "; done; done)
# shellcheck disable=SC2086
t=$(cgt_best $shapes)
echo "| all 20 up to 4 × 5 | $d s | $n s | $t s | $(ratio "$d" "$t") | $(awk -v n="$d" 'BEGIN { printf "%.0f", 20 / n }') | |"
