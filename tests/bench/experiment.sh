#!/usr/bin/env bash
# Description: an experiment's `run --quick` (its matrix.quick: tiny sizes,
# seconds, on one clock named in its uvmemu line: the model clock, or the
# real clock where the experiment's subject is the host's own time) exits 0
# with every run verified, and writes table.md: its own table with a row for
# each workload of the quick matrix, one footer line with the run count,
# date, commit, machine, clock, repeats and dilation; under the model clock
# a column headed by its time ("gpu s") and no model-overrun table
# (overruns exist only on the real clock), under the real clock that table;
# results.csv carries each run's clock (and, modelled, its gpu_s);
# --table-only makes the same table, footer included, again from the
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
read -r -a workloads <<<"$(sed -n 's/^workloads:[[:space:]]*//p' "$matrix")"
for w in "${workloads[@]}"; do
	grep -q "^| $w |" "$table" || fail "no row for $w in the table"
done
n=$(grep -c '^runs: ' "$table")
[ "$n" = 1 ] || fail "$n footer lines, not 1"
footer=$(grep '^runs: ' "$table")
runs=$(sed -n 's/^runs: \([0-9]*\), passing: \([0-9]*\);.*/\1 \2/p' <<<"$footer")
read -r total passing <<<"$runs"
if [ "${total:-0}" -eq 0 ] || [ "$total" != "${passing:-}" ]; then
	fail "footer: '$runs' (runs, passing): not all runs passed"
fi
# What every table must state (issue 31): date, commit, machine, clock, D,
# repeats.
clock=$(grep -o -- '--clock [a-z]*' "$matrix" | awk '{ print $2 }' | sort -u)
case $clock in
model | real) ;;
*) fail "the quick matrix does not name one clock (--clock model or real) in its uvmemu line: '$clock'" ;;
esac
for want in ' [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC;' '; commit [0-9a-f]{7,}(-dirty)?;' \
	'; machine: [0-9]+ CPUs \(' "; clock $clock " '; repeats 1;' '; D \(dilation\) [0-9]'; do
	grep -Eq -- "$want" <<<"$footer" || fail "the footer lacks /$want/: $footer"
done
csv=$dir/out/results.csv
head -1 "$csv" | grep -q '"clock","gpu_s","gpu_batches"' || fail "results.csv has no clock, gpu_s, gpu_batches columns"
# Overruns and late wakes exist only on the real clock.
if [ "$clock" = model ]; then
	grep -q '^| .*gpu s' "$table" ||
		fail "no column headed by gpu s (the model clock's time)"
	! grep -q '^Model overruns' "$table" || fail "a model-clock table has the model-overrun table"
	[ "$(grep -c ',"model",[0-9]' "$csv")" = "$total" ] || fail "results.csv: not every run is on the model clock with a gpu_s"
else
	grep -q '^Model overruns' "$table" || fail "a real-clock table lacks the model-overrun table"
	[ "$(grep -c ',"real",' "$csv")" = "$total" ] || fail "results.csv: not every run is on the real clock"
fi
cp "$table" "$dir/first.md"
"$run" --table-only --build "$build" --out "$dir/out" >/dev/null 2>"$dir/err2" || fail "--table-only failed: $(cat "$dir/err2")"
# The same table, footer included: its date, commit and machine are the
# run's, recorded when it ran.
diff "$dir/first.md" "$table" >/dev/null || fail "--table-only made another table: $(diff "$dir/first.md" "$table")"
"$run" --no-such-option >/dev/null 2>"$dir/err3"
rc=$?
[ $rc -eq 2 ] || fail "an unknown option exited $rc, not 2"
grep -q -- "--no-such-option" "$dir/err3" || fail "the error does not name the option: $(cat "$dir/err3")"
[ $fails -eq 0 ] && echo "PASS: $exp --quick" || exit 1
