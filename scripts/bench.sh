#!/usr/bin/env bash
# Prints a markdown table of time and peak memory for the native back end, a hand-written
# loop and the interpreter (docs/PERFORMANCE.md keeps the results).
#   scripts/bench.sh           quick sizes (minutes)
#   scripts/bench.sh --full    the sizes of issue 4 (about four minutes)
set -euo pipefail
source "$(dirname "$0")/common.sh"
full=false
[ "${1:-}" = "--full" ] && full=true
if $full; then kn=100000; ki=10000; gn=100000; q=1000; else kn=20000; ki=4000; gn=20000; q=300; fi

cargo build --release -q -p cgdl-runtime --examples

# Runs a command; prints "seconds|peak MB".
measure() {
    /usr/bin/time -f "%e|%M" -o "$tmp/t" "$@" > "$tmp/out" 2> "$tmp/err" || {
        echo "failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
    awk -F'|' '{ printf "%.2f s | %.0f MB", $1, $2 / 1024 }' "$tmp/t"
}

# Warm the native cache so that build time is not measured: one `run` (a `cgdl build`
# solver is cached under another key, as it shows its file's name).
prepare() { $cgdl run --native "$1" > /dev/null 2>&1; }

cat > "$tmp/kayles.cgdl" <<CGDL
game Kayles(n: nat) {
    move knock(k in 1..=2, k <= n, left in 0..=(n - k) / 2) => Kayles(left) + Kayles(n - k - left)
}
value grundy of Kayles($kn)
CGDL
sed "s/Kayles($kn)/Kayles($ki)/" "$tmp/kayles.cgdl" > "$tmp/kayles_small.cgdl"
cat > "$tmp/grundy.cgdl" <<CGDL
game Grundy(n: nat) {
    move split(n >= 3, a in 1..=(n - 1) / 2) => Grundy(a) + Grundy(n - a)
}
value grundy of Grundy($gn)
CGDL
cat > "$tmp/queen.cgdl" <<CGDL
game Queen(r: 0..$q, c: 0..$q) {
    move west(k in 1..=c) => Queen(r, c - k)
    move north(k in 1..=r) => Queen(r - k, c)
    move northwest(k in 1..=min(r, c)) => Queen(r - k, c - k)
}
value grundy of Queen($((q - 1)), $((q - 1)))
CGDL
grep -v '^table\|^value' examples/degenerate_dots.cgdl > "$tmp/dots.cgdl"
echo 'value outcome of Dots(4, 5, {})' >> "$tmp/dots.cgdl"

for f in kayles grundy queen dots; do prepare "$tmp/$f.cgdl"; done

echo "| task | back end | time | peak memory |"
echo "|---|---|---|---|"
echo "| (a) Kayles, explicit rule, Grundy to n = $kn | native | $(measure $cgdl run --native "$tmp/kayles.cgdl") |"
echo "| (a) Kayles, Grundy to n = $kn | hand-written loop | $(measure target/release/examples/kayles_loop $kn) |"
echo "| (a) Kayles, Grundy to n = $ki (work scales as n²) | interpreter | $(measure $cgdl run --interp "$tmp/kayles_small.cgdl") |"
echo "| (b) Grundy's game, Grundy to n = $gn | native | $(measure $cgdl run --native "$tmp/grundy.cgdl") |"
echo "| (c) Queen Grundy grid $q×$q | native | $(measure $cgdl run --native "$tmp/queen.cgdl") |"
if $full; then
    echo "| (d) degenerate dots, empty 4×5 dots | native | $(measure $cgdl run --native "$tmp/dots.cgdl") |"
fi
echo
echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(rustc --version); $(date -u +%Y-%m-%d)."
