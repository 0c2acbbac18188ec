#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's Cram table: the Grundy value of the empty board from
# examples/cram.cgdl (its regions split into sums by `components`, and its mirror
# symmetries), from the same description with whole boards as results (mirrors only), and
# with neither (the plain description), natively, against Beling's igsolve (a hand-written
# Cram solver; installed into target/peers the first time with `cargo install igsolve`),
# in one run, one run each. A cgdl run past $LIMIT seconds (default 120) is stopped and
# shown as "> LIMIT s".
#   scripts/cram_vs_igsolve.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
igsolve=target/peers/bin/igsolve
[ -x "$igsolve" ] || cargo install -q igsolve --root target/peers
limit=${LIMIT:-120}

# The example on an R × C board asking for the empty board's Grundy value; the same with
# whole boards as results; and that without its symmetries.
boards() {
    sized examples/cram.cgdl "$1" "$2" "$tmp/example.cgdl"
    echo 'value grundy of Cram(Cell)' >> "$tmp/example.cgdl"
    sed -e 's/^ *sum(Cram(part) for part in components(\(.*\), x => neighbours(x)))$/        Cram(\1)/' \
        "$tmp/example.cgdl" > "$tmp/mirrors.cgdl"
    grep -v '^ *symmetry' "$tmp/mirrors.cgdl" > "$tmp/plain.cgdl"
    if grep -q components "$tmp/mirrors.cgdl"; then
        echo "cram_vs_igsolve.sh: the example's moves no longer read as expected" >&2
        exit 1
    fi
}
# Seconds and value of `cgdl run FILE` after a run that builds it, or "> limit".
timed() {
    $cgdl run --native --threads "$threads" "$1" --max-positions 1 > /dev/null 2>&1 || true
    local start end
    start=$(date +%s.%N)
    if out=$(timeout "$limit" $cgdl run --native --threads "$threads" "$1"); then
        end=$(date +%s.%N)
        echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }') s ($(echo "$out" | awk '/^  grundy/ { print $2 }'))"
    else
        echo "> $limit s"
    fi
}

# a / b to `places` decimals, or "-" when either was stopped.
ratio() {
    awk -v a="${1%% *}" -v b="${2%% *}" -v p="$3" \
        'BEGIN { if (a == ">" || b == ">" || b <= 0) print "-"; else printf "%." p "f", a / b }'
}

echo "| board | cgdl (example) | cgdl (mirrors only) | cgdl (plain) | igsolve | example / igsolve | example / plain |"
echo "|---|---|---|---|---|---|---|"
for board in 4x5 5x5 5x6 4x7 6x6; do
    r=${board%x*}
    c=${board#*x}
    boards "$r" "$c"
    e=$(timed "$tmp/example.cgdl")
    m=$(timed "$tmp/mirrors.cgdl")
    p=$(timed "$tmp/plain.cgdl")
    start=$(date +%s.%N)
    g=$($igsolve cram -r "$r" -c "$c" | sed -n 's/^Nimber of initial position: //p')
    end=$(date +%s.%N)
    i=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
    echo "| $r × $c | $e | $m | $p | $i s ($g) | $(ratio "$e" "$i" 1) | $(ratio "$e" "$p" 2) |"
done
