#!/usr/bin/env bash
# Description: an experiment's `run --quick` (its matrix.quick: tiny sizes,
# seconds) exits 0 with every run verified, and writes table.md: its own
# table with a row for each workload of the quick matrix, the footer with
# the run count, and the model-overrun table with a row for each backend
# the matrix names; --table-only makes the same table again from the
# results; an unknown option is refused with exit status 2.
# Usage: experiment.sh BUILD SRC EXPERIMENT
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
exp=$3
run=$src/bench/experiments/$exp/run
# shellcheck source=sweep_prelude.sh
. "$(dirname "$0")/sweep_prelude.sh"

if ! "$run" --quick --build "$build" --out "$dir/out" >"$dir/log" 2>&1; then
	fail "run --quick exited non-zero: $(tail -20 "$dir/log")"
fi
! grep -q '^jq: error' "$dir/log" || fail "a table filter failed: $(grep '^jq: error' "$dir/log")"
table=$dir/out/table.md
[ -s "$table" ] || { echo "FAIL: no table.md"; cat "$dir/log"; exit 1; }
matrix=$src/bench/experiments/$exp/matrix.quick
for w in $(sed -n 's/^workloads:[[:space:]]*//p' "$matrix"); do
	grep -q "^| $w |" "$table" || fail "no row for $w in the table"
done
n=$(grep -c '^runs: ' "$table")
[ "$n" = 1 ] || fail "$n footer lines, not 1"
runs=$(sed -n 's/^runs: \([0-9]*\), passing: \([0-9]*\);.*/\1 \2/p' "$table")
read -r total passing <<<"$runs"
if [ "${total:-0}" -eq 0 ] || [ "$total" != "${passing:-}" ]; then
	fail "footer: '$runs' (runs, passing): not all runs passed"
fi
grep -q '^Model overruns' "$table" || fail "no model-overrun table"
for b in $(grep -o -- '--backend [a-z]*' "$matrix" | awk '{ print $2 }' | sort -u); do
	grep -q "^| $b | " "$table" || fail "the overrun table has no row for the $b backend"
done
cp "$table" "$dir/first.md"
"$run" --table-only --build "$build" --out "$dir/out" >/dev/null 2>"$dir/err2" || fail "--table-only failed: $(cat "$dir/err2")"
# The tables match but for the footer line (its date).
diff <(grep -v '^runs: ' "$dir/first.md") <(grep -v '^runs: ' "$table") >/dev/null ||
	fail "--table-only made another table"
"$run" --no-such-option >/dev/null 2>"$dir/err3"
rc=$?
[ $rc -eq 2 ] || fail "an unknown option exited $rc, not 2"
grep -q -- "--no-such-option" "$dir/err3" || fail "the error does not name the option: $(cat "$dir/err3")"
[ $fails -eq 0 ] && echo "PASS: $exp --quick" || exit 1
