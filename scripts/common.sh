# Sourced by the benchmark scripts: the repository's root as the working folder, the
# release CLI built (`$cgdl`), solvers cached in target/cgdl-bench-cache, and a temporary
# folder `$tmp` removed on exit. The scripts time `cgdl run --native`: without it, a file's
# first run answers with the interpreter while its solver builds, and may end before the
# build does, so the next run would not find it cached.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release -q -p cgdl
export CGDL_CACHE_DIR="${CGDL_CACHE_DIR:-$PWD/target/cgdl-bench-cache}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cgdl=target/release/cgdl
# The threads a cgdl solve may use where it is timed against a peer: one by default, as
# every peer here runs on one (`THREADS=2` for cgdl's own speed on this machine).
threads=${THREADS:-1}

# `sized FILE R C OUT`: FILE with its constants R and C set and its queries dropped.
sized() {
    sed -e "s/^const R = .*/const R = $2/" -e "s/^const C = .*/const C = $3/" \
        -e '/^value\|^table/d' "$1" > "$4"
}

# `best_of RUNS LIMIT CMD...`: the best wall-clock seconds (`$DIGITS` decimals, default 3)
# of RUNS runs of CMD, whose last output is left in `$tmp/out`; "> LIMIT" when a run is
# stopped at LIMIT seconds. A run that fails prints its output to stderr, and `best_of`
# prints "failed" and returns 1.
best_of() {
    local runs=$1 limit=$2 best= start end status
    shift 2
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        status=0
        timeout "$limit" "$@" > "$tmp/out" 2>&1 || status=$?
        end=$(date +%s.%N)
        if [ "$status" = 124 ]; then echo "> $limit"; return 0; fi
        if [ "$status" != 0 ]; then cat "$tmp/out" >&2; echo "failed"; return 1; fi
        best=$(awk -v s="$start" -v e="$end" -v b="$best" -v d="${DIGITS:-3}" \
            'BEGIN { a = e - s; if (b == "" || a < b) printf "%.*f", d, a; else print b }')
    done
    echo "$best"
}
