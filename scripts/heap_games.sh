#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's "heap games against ogsolve" table: cgdl's native solver
# computing every value of an octal game up to n (a `period` query, so that no value is read
# off a period) beside Beling's ogsolve (`cargo install ogsolve`) on the same game, in the
# same run, the best of ogsolve's methods; then the worst ratio. Wall-clock seconds, best of
# $RUNS runs (default 1); a process past $TIMEOUT seconds (default 120) is stopped and shown
# as "> $TIMEOUT s" (a row whose cgdl run is stopped counts as the worst ratio it could be).
#   scripts/heap_games.sh                     every code at 10^5 and 10^6 (an hour or more)
#   SIZES=100000 scripts/heap_games.sh        every code at 10^5 (about ten minutes)
#   scripts/heap_games.sh 0.106 0.16          only these codes
# The codes: octal games of one to three digits whose nim-sequences have no known period
# (the "period" column says whether cgdl proved one within n), the ones of issue 40 first.
set -euo pipefail
command -v ogsolve > /dev/null || { echo "ogsolve is needed: cargo install ogsolve" >&2; exit 1; }
source "$(dirname "$0")/common.sh"
runs=${RUNS:-1}
timeout=${TIMEOUT:-120}
methods=${METHODS:-naive,rc,rc2}
sizes=${SIZES:-100000 1000000}
source "$(dirname "$0")/heap_codes.sh"

# `period grundy of G(n) for n in 0..=N` of octal code $1: the time, then the period found.
cgdl_time() {
    local code=$1 n=$2
    printf 'game G = octal "%s"\nperiod grundy of G(n) for n in 0..=%s\n' "$code" "$n" > "$tmp/g.cgdl"
    # The first run builds the solver (cached): not timed.
    $cgdl run --native --threads "$threads" "$tmp/g.cgdl" --max-positions 1 > /dev/null 2>&1 || true
    local t
    t=$(DIGITS=2 best_of "$runs" "$timeout" $cgdl run --native --threads "$threads" "$tmp/g.cgdl") || exit 1
    local found="none"
    if grep -q "preperiod" "$tmp/out"; then
        found=$(grep -o "preperiod [0-9]*, period [0-9]*" "$tmp/out")
    elif [[ "$t" == ">"* ]]; then
        found="?"
    fi
    echo "$t|$found"
}

# ogsolve's best method on code $1 to $2, and its name.
ogsolve_time() {
    local code=$1 n=$2 best= name=
    for m in ${methods//,/ }; do
        local t
        t=$(DIGITS=2 best_of "$runs" "$timeout" ogsolve "$code" -n "$n" -m "$m") || exit 1
        [[ "$t" == ">"* ]] && continue
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t name=$m
        fi
    done
    [ -n "$best" ] && echo "$best|$name" || echo "> $timeout|every method"
}

wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=("${codes[@]}")
echo "| game | n | period (cgdl) | cgdl | ogsolve (best method) | cgdl / ogsolve |"
echo "|---|---|---|---|---|---|"
worst=0 worst_row=
for n in $sizes; do
    for code in "${wanted[@]}"; do
        IFS='|' read -r c found <<< "$(cgdl_time "$code" "$n")"
        IFS='|' read -r o m <<< "$(ogsolve_time "$code" "$n")"
        # A stopped run counts as taking the timeout: a bound on the ratio, shown as one.
        ratio=$(awk -v a="${c#> }" -v b="${o#> }" -v sa="${c:0:1}" -v sb="${o:0:1}" 'BEGIN {
            r = a / (b > 0 ? b : 0.001)
            if (sa == ">" && sb == ">") { print "?"; exit }
            printf "%s%.2f", (sa == ">" ? "> " : (sb == ">" ? "< " : "")), r }')
        printf '| %s | %s | %s | %s s | %s s (%s) | %s× |\n' "$code" "$n" "$found" "$c" "$o" "$m" "$ratio"
        value=${ratio#[<>] }
        if [ "$value" != "?" ] && [ "${ratio:0:1}" != "<" ] \
            && awk -v a="$value" -v b="$worst" 'BEGIN { exit !(a > b) }'; then
            worst=$value worst_row="$code at $n"
        fi
    done
done
echo
echo "worst ratio: ${worst}× ($worst_row)"
