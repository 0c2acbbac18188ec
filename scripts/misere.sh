#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's misère table: misère quotients of heap games, misère outcomes
# of large sums read off them, and misère canonical forms, natively, best of $RUNS (default
# 3) after a run that builds each solver. No peer on this machine computes these from a
# description (MisereSolver and CGSuite are Java programs not installed here), so the last
# column compares with the definition where a search of it finishes: an exact search of
# the sum (`--exact`), stopped at $LIMIT seconds (default 60).
#   scripts/misere.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs=${RUNS:-3}
limit=${LIMIT:-60}

echo "| query | cgdl | the definition (exact search) | cgdl / definition |"
echo "|---|---|---|---|"
row() {
    local query=$1 exact=${2:-yes} file=$tmp/misere.cgdl fast slow
    { echo 'game G033 = octal "0.33"'
      echo 'game G075 = octal "0.75"'
      echo 'game Kayles = octal "0.77"'
      echo "$query"; } > "$file"
    "$cgdl" run --native "$file" > /dev/null 2>&1 || true
    fast=$(best_of "$runs" "$limit" "$cgdl" run --native "$file" || true)
    slow=-
    if [ "$exact" = yes ]; then
        slow=$(best_of 1 "$limit" "$cgdl" run --native --exact "$file" || true)
    fi
    ratio=$(awk -v f="$fast" -v s="$slow" 'BEGIN { if (s ~ />|failed|-/ || f ~ />|failed/ || s <= 0) print "-"; else printf "%.2f", f / s }')
    echo "| \`$query\` | $fast s | $slow s | $ratio |"
}
row "quotient of G075(n) for n in 0..=30" no
row "quotient of Kayles(n) for n in 0..=80" no
row "value misere_outcome of Kayles(5) + Kayles(7) + Kayles(9) + Kayles(11)"
row "value misere_outcome of Kayles(20) + Kayles(27) + Kayles(33) + Kayles(41) + Kayles(45) + Kayles(52) + Kayles(58) + Kayles(60)"
row "value misere_form of Kayles(14)" no
row "value misere_form of Kayles(17)" no
