#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's Cram table: the Grundy value of the empty board from
# examples/cram.cgdl (with its mirror symmetries) and from the same description without
# them, natively, against Beling's igsolve (a hand-written Cram solver; installed into
# target/peers the first time with `cargo install igsolve`), in one run, one run each.
# A cgdl run past $LIMIT seconds (default 120) is stopped and shown as "> LIMIT s".
#   scripts/cram_vs_igsolve.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
igsolve=target/peers/bin/igsolve
[ -x "$igsolve" ] || cargo install -q igsolve --root target/peers
limit=${LIMIT:-120}

# The example on an R × C board asking for the empty board's Grundy value, and the same
# without its symmetries.
boards() {
    sized examples/cram.cgdl "$1" "$2" "$tmp/sym.cgdl"
    echo 'value grundy of Cram(Cell)' >> "$tmp/sym.cgdl"
    grep -v '^ *symmetry' "$tmp/sym.cgdl" > "$tmp/plain.cgdl"
}
# Seconds and value of `cgdl run FILE` after a run that builds it, or "> limit".
timed() {
    $cgdl run "$1" --max-positions 1 > /dev/null 2>&1 || true
    local start end
    start=$(date +%s.%N)
    if out=$(timeout "$limit" $cgdl run "$1"); then
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

echo "| board | cgdl (mirrors) | cgdl (plain) | igsolve | mirrors / igsolve | mirrors / plain |"
echo "|---|---|---|---|---|---|"
for board in 4x5 5x5 5x6 4x7 6x6; do
    r=${board%x*}
    c=${board#*x}
    boards "$r" "$c"
    s=$(timed "$tmp/sym.cgdl")
    p=$(timed "$tmp/plain.cgdl")
    start=$(date +%s.%N)
    g=$($igsolve cram -r "$r" -c "$c" | sed -n 's/^Nimber of initial position: //p')
    end=$(date +%s.%N)
    i=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
    echo "| $r × $c | $s | $p | $i s ($g) | $(ratio "$s" "$i" 0) | $(ratio "$s" "$p" 2) |"
done
