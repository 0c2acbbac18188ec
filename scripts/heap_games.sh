#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's "heap games against ogsolve" table: cgdl's native solver
# computing every value of an octal game up to n (a `period` query, so that no value is read
# off a period) beside Beling's ogsolve (`cargo install ogsolve`) on the same game, in the
# same run, the best of ogsolve's methods. Wall-clock seconds, best of $RUNS runs (default 1).
#   scripts/heap_games.sh              every row (about fifteen minutes: 0.07 and 0.007 are slow)
#   scripts/heap_games.sh 0.156 0.16   only these codes
set -euo pipefail
command -v ogsolve > /dev/null || { echo "ogsolve is needed: cargo install ogsolve" >&2; exit 1; }
source "$(dirname "$0")/common.sh"
runs=${RUNS:-1}
methods=${METHODS:-naive,rc,rc2}

# Best wall-clock time (seconds) of $runs runs of a command.
best() {
    local best=
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o "$tmp/t" "$@" > "$tmp/out" 2>&1 || { cat "$tmp/out" >&2; exit 1; }
        best=$(awk -v a="$(cat "$tmp/t")" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    echo "$best"
}

# `period grundy of G(n) for n in 0..=N` (or one `value`) of octal code $1, natively.
cgdl_time() {
    local code=$1 n=$2 kind=$3
    {
        echo "game G = octal \"$code\""
        if [ "$kind" = eval ]; then
            echo "value grundy of G($n)"
        else
            echo "period grundy of G(n) for n in 0..=$n"
        fi
    } > "$tmp/g.cgdl"
    $cgdl run "$tmp/g.cgdl" > /dev/null 2>&1 || { $cgdl run "$tmp/g.cgdl" >&2; exit 1; }
    best $cgdl run "$tmp/g.cgdl"
}

# ogsolve's best method on code $1 to $2, and its name. Naive is skipped past 10^6 terms
# where rc or rc2 is far quicker (ogsolve 0.156 and 0.16 at 4·10^6).
ogsolve_time() {
    local code=$1 n=$2 best= name=
    for m in ${methods//,/ }; do
        if [ "$m" = naive ] && [ "$n" -gt 1000000 ]; then continue; fi
        local t
        t=$(best ogsolve "$code" -n "$n" -m "$m")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t name=$m
        fi
    done
    echo "$best $name"
}

echo "| game | n | query | cgdl | ogsolve (best method) | cgdl / ogsolve |"
echo "|---|---|---|---|---|---|"
row() {
    local code=$1 n=$2 kind=$3
    local c o m
    c=$(cgdl_time "$code" "$n" "$kind")
    read -r o m <<< "$(ogsolve_time "$code" "$n")"
    printf '| %s | %s | %s | %s s | %s s (%s) | %s× |\n' "$code" "$n" "$kind" "$c" "$o" "$m" \
        "$(awk -v a="$c" -v b="$o" 'BEGIN { printf "%.2f", a / b }')"
}
wanted=("$@")
# Whether code $1 is among the codes asked for (all when none was).
wanted_code() {
    [ ${#wanted[@]} -eq 0 ] && return 0
    for want in "${wanted[@]}"; do [ "$want" = "$1" ] && return 0; done
    return 1
}
while read -r code n kind; do
    if wanted_code "$code"; then
        row "$code" "$n" "$kind"
    fi
done <<ROWS
0.156 1000000 period
0.156 4000000 period
0.16 1000000 period
0.16 4000000 period
0.77 1000000 period
0.14 1000000 period
0.14 1000000 eval
0.07 1000000 period
0.007 1000000 period
ROWS
