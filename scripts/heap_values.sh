#!/usr/bin/env bash
# Checks that cgdl's nim-sequence of each octal game of scripts/heap_codes.sh (or of the codes
# given) equals ogsolve's (`cargo install ogsolve`, method rc2, `-p`) up to heap $N (default
# 100000): cgdl's native solver prints the values with a `table` query. Prints one line per
# code and exits non-zero on the first difference.
#   scripts/heap_values.sh              every code to 10^5 (a few minutes)
#   N=1000 scripts/heap_values.sh 0.106
set -euo pipefail
command -v ogsolve > /dev/null || { echo "ogsolve is needed: cargo install ogsolve" >&2; exit 1; }
source "$(dirname "$0")/common.sh"
source scripts/heap_codes.sh
n=${N:-100000}
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=("${codes[@]}")
for code in "${wanted[@]}"; do
    printf 'game G = octal "%s"\ntable grundy of G(n) for n in 0..=%s\n' "$code" "$n" > "$tmp/g.cgdl"
    $cgdl run --native "$tmp/g.cgdl" --format json \
        | python3 -c 'import json, sys; print(" ".join(str(r[1]) for r in json.load(sys.stdin)["queries"][0]["rows"]))' \
        > "$tmp/cgdl"
    ogsolve "$code" -n "$n" -m rc2 -p | sed -n 's/^ nimbers: //p' > "$tmp/ogsolve"
    if cmp -s "$tmp/cgdl" "$tmp/ogsolve"; then
        echo "$code: $((n + 1)) values equal"
    else
        echo "$code: the values differ" >&2
        exit 1
    fi
done
