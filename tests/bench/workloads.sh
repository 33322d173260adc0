#!/usr/bin/env bash
# Description: bench/workloads/run on two workloads at 4 MiB prints a row
# for each with its ratios (the host's, and 1.25x over fitting in modelled
# GPU time) and reuse rates, the median of the modelled ratio, the suite's
# mean reuse rate (measured by probes in a run of its own: the timed runs
# probe nothing),
# how many meet fitting <= 1.5x native, and fit_over_native_max= as its last
# line, equal to the largest fit/nat in the table; it refuses a name that is
# not a workload and a bad option with exit status 2.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
run=$src/bench/workloads/run
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
"$build/bin/uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$run" --footprint 4M --build "$build" --out "$dir/out" vecadd fft >"$dir/log" 2>&1 ||
	{ echo "FAIL: bench/workloads/run exited non-zero"; cat "$dir/log"; exit 1; }
for w in vecadd fft; do
	grep -q "^$w " "$dir/log" || fail "no row for $w"
	for m in native fit over reuse; do
		[ "$(jq -r .verify "$dir/out/$w.$m.json")" = pass ] || fail "$w $m: no verified report"
	done
	for m in fit over; do
		[ "$(jq -r .probe_faults "$dir/out/$w.$m.json")" = 0 ] || fail "$w $m: a timed run probed"
	done
done
[ "$(jq -r .data_reuse.source "$dir/out/fft.reuse.json")" = probes ] ||
	fail "fft's reuse run did not estimate by probes"
grep -q '^data reuse rate at 1.25x, mean over 2 workloads: [0-9.]*%' "$dir/log" || fail "no mean reuse rate"
grep -q '^fitting wall time within 1.5x native (the emulator.s cost on the host; issue 9.s target): [0-2] of 2' "$dir/log" ||
	fail "no target count"
# The emulated runs are on the model clock (the default): each row has its
# modelled times and their ratio, and the summary their median.
for w in vecadd fft; do
	awk -v w="$w" '$1 == w { exit !($(NF - 2) ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $(NF - 1) ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $NF ~ /^[0-9]+\.[0-9][0-9]$/) }' "$dir/log" ||
		fail "$w: no gpu_fit, gpu_over and gpu_o/f columns: $(grep "^$w " "$dir/log")"
done
grep -q '^1.25x over fitting in modelled GPU time (gpu_o/f), 2 workloads: median [0-9.]*, max [0-9.]*$' "$dir/log" ||
	fail "no summary of gpu_o/f"
last=$(tail -1 "$dir/log")
worst=$(awk '$1 == "vecadd" || $1 == "fft" { print $8 }' "$dir/log" | sort -g | tail -1)
[ "$last" = "fit_over_native_max=$worst" ] || fail "last line '$last', not fit_over_native_max=$worst"
"$run" --build "$build" no-such-workload >/dev/null 2>"$dir/err"
rc=$?
{ [ $rc -eq 2 ] && grep -q "no-such-workload" "$dir/err"; } || fail "an unknown workload is not refused with exit 2"
"$run" --build "$build" --bogus >/dev/null 2>"$dir/err"
rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--bogus" "$dir/err"; } || fail "an unknown option is not refused with exit 2"
[ $fails -eq 0 ] && echo "PASS: bench/workloads/run" || exit 1
