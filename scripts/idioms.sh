#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's idioms table: Cram 5 × 6 and Chomp 10 × 10, each written in
# several idioms (the example, the corpus's natural descriptions, the project's variants
# with declared symmetries proven or checked; then the example on other boards), natively
# on one thread, against Beling's
# igsolve (installed into target/peers the first time) in the same run: each row's cgdl
# runs and igsolve's runs take turns, best of $RUNS (default 5), after a run that builds
# the solver. A run past $LIMIT seconds (default 60) is shown as "> LIMIT".
#   scripts/idioms.sh [CORPUS_DIR]
set -euo pipefail
corpus=$(cd "${1:-$(dirname "$0")/../../shared/corpus}" && pwd)
source "$(dirname "$0")/common.sh"
igsolve=target/peers/bin/igsolve
[ -x "$igsolve" ] || cargo install -q igsolve --root target/peers
runs=${RUNS:-5}
limit=${LIMIT:-60}

# The lesser of two times ("" is none yet).
least() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (b == "" || b ~ />|failed/) print a; else if (a ~ />|failed/) print b
        else print (a + 0 < b + 0) ? a : b }'
}
ratio() { awk -v n="$1" -v t="$2" 'BEGIN { if (n ~ />|failed/ || t <= 0) print "-"; else printf "%.1f", n / t }'; }

# `FILE` on an R × C board with one query, `value grundy of GAME(Cell)` (or of the position
# `$6`), into `OUT`.
one_query() {
    sized "$1" "$2" "$3" "$4"
    echo "value grundy of ${6:-$5(Cell)}" >> "$4"
}

echo "| game | idiom | cgdl | igsolve | cgdl / igsolve |"
echo "|---|---|---|---|---|"
# One row: FILE (sized to R × C, asked the Grundy value of GAME(Cell), or of the position
# ROOT) against `igsolve PEER -r R -c C`, taking turns.
row() {
    local label=$1 idiom=$2 file=$3 game=$4 r=$5 c=$6 peer=$7 root=${8:-}
    one_query "$file" "$r" "$c" "$tmp/idiom.cgdl" "$game" "$root"
    $cgdl run --native --threads "$threads" "$tmp/idiom.cgdl" --max-positions 1 > /dev/null 2>&1 || true
    local n= p= value=
    for _ in $(seq "$runs"); do
        case $n in
            ">"* | failed) ;;
            *) n=$(least "$(best_of 1 "$limit" $cgdl run --native --threads "$threads" "$tmp/idiom.cgdl" || true)" "$n") ;;
        esac
        [ -n "$value" ] || value=$(awk '/^  grundy/ { print $2 }' "$tmp/out")
        p=$(least "$(best_of 1 "$limit" "$igsolve" "$peer" -r "$r" -c "$c")" "$p")
    done
    echo "| $label $r × $c ($value) | $idiom | $n s | $p s | $(ratio "$n" "$p") |"
}
plain_example="$tmp/cram_plain.cgdl"
grep -v '^ *symmetry' examples/cram.cgdl > "$plain_example"
# The example with the whole rest of the board as a move's result (no regions).
whole="$tmp/cram_whole.cgdl"
sed -e 's/^ *sum(Cram(part) for part in components(\(.*\), x => neighbours(x)))$/        Cram(\1)/' \
    examples/cram.cgdl > "$whole"
if grep -q components "$whole"; then
    echo "idioms.sh: the example's moves no longer read as expected" >&2
    exit 1
fi
# Each variant's declared maps are what its row says: proven, or checked as the solver runs
# (a compiler that learnt to prove the checked one would silently turn its row into another).
verdict() {
    local file=$1 want=$2 said
    said=$($cgdl check "$file" 2>&1 || true)
    if ! grep -qF "$want" <<< "$said"; then
        echo "idioms.sh: \`cgdl check $file\` no longer says \"$want\"" >&2
        exit 1
    fi
}
verdict scripts/variants/cram_corner_mirrors.cgdl "declared symmetries (proven"
verdict scripts/variants/cram_corner_guarded.cgdl "declared symmetries (proven"
verdict scripts/variants/cram_corner_checked.cgdl "(checked as the solver runs)"
verdict scripts/variants/chomp_diagonal.cgdl "declared symmetry (proven"
verdict "$whole" "a sum of the parts its moves join (found)"
verdict scripts/variants/cram_pairs.cgdl "a sum of the parts its moves join (found)"
verdict scripts/variants/cram_numbered.cgdl "a sum of the parts its moves join (found)"
verdict scripts/variants/cram_filled.cgdl "solved as the game of its set's complement (found)"
row Cram "\`examples/cram.cgdl\`: \`components\`, the mirrors declared" examples/cram.cgdl Cram 5 6 cram
row Cram "the example without its \`symmetry\` lines" "$plain_example" Cram 5 6 cram
row Cram "corpus \`cram_closure\`: closures, \`rank(x) == min(...)\`" "$corpus/cram_closure.cgdl" Cram 5 6 cram
row Cram "variant \`cram_corner\`: closures moved to the corner, \`a < b\`" scripts/variants/cram_corner.cgdl Cram 5 6 cram
row Cram "\`cram_corner_mirrors\`: the same, mirrors declared over the corner (proven)" scripts/variants/cram_corner_mirrors.cgdl Cram 5 6 cram
row Cram "\`cram_corner_guarded\`: the mirrors behind a guard every cell passes (proven)" scripts/variants/cram_corner_guarded.cgdl Cram 5 6 cram
row Cram "\`cram_corner_checked\`: the same mirrors, unprovable (checked, then dropped)" scripts/variants/cram_corner_checked.cgdl Cram 5 6 cram
row Cram "whole boards: the rest of the board as a move's result, no regions" "$whole" Cram 5 6 cram
row Cram "\`cram_pairs\`: one move over neighbouring cells \`a\`, \`b\` (each domino twice), whole boards" scripts/variants/cram_pairs.cgdl Cram 5 6 cram
row Cram "\`cram_numbered\`: cells numbered \`0..R * C\`, whole boards" scripts/variants/cram_numbered.cgdl Cram 5 6 cram
row Cram "\`cram_filled\`: the filled cells, \`not in\` tests, whole boards" scripts/variants/cram_filled.cgdl Cram 5 6 cram "Cram({})"
for board in "4 7" "6 6" "5 7"; do
    row Cram "\`examples/cram.cgdl\`" examples/cram.cgdl Cram $board cram
done
row Chomp "corpus \`chomp\`: a bite as a comprehension" "$corpus/chomp.cgdl" Chomp 10 10 chomp
row Chomp "\`chomp_diagonal\`: the diagonal declared" scripts/variants/chomp_diagonal.cgdl Chomp 10 10 chomp
row Chomp "\`chomp_quadrant\`: \`left - quadrant(x)\`, a tabulated helper" scripts/variants/chomp_quadrant.cgdl Chomp 10 10 chomp
