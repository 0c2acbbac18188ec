# Sourced by the benchmark scripts: the repository's root as the working folder, the
# release CLI built (`$cgdl`), solvers cached in target/cgdl-bench-cache, and a temporary
# folder `$tmp` removed on exit.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release -q -p cgdl
export CGDL_CACHE_DIR="${CGDL_CACHE_DIR:-$PWD/target/cgdl-bench-cache}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cgdl=target/release/cgdl

# `sized FILE R C OUT`: FILE with its constants R and C set and its queries dropped.
sized() {
    sed -e "s/^const R = .*/const R = $2/" -e "s/^const C = .*/const C = $3/" \
        -e '/^value\|^table/d' "$1" > "$4"
}
