#!/usr/bin/env bash
# Description: experiment 07's hostthreads under the emulator, with one busy
# thread of the process and with one busy process (the control): every sum
# the GPU side read verifies (the migrating read and the resident re-reads),
# and the busy side's passes and its two speeds (migrating, resident) are in
# the report; under --placement split (2 or more CPUs) the program's threads,
# the emulator's driver among them, are pinned to one CPU and the busy
# side ran on the others; a bad --busy or --placement, or split with one
# CPU, names the accepted values and exits 2. Figures are not judged.
set -u
build=$1
report=$(mktemp)
trap 'rm -f "$report"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A busy process the scheduler does not run during the short migrating phase
# (CI runs tests side by side) ends no pass there: that phase's rate is then
# "not measured", absent from the report, never 0. It must be measured once
# the phase is 16 times as long.
for kind in managed process; do
	for blocks in 256 4096; do
		out=$("$build/bin/uvmemu" run --summary off --report "$report" --prefetch none -- \
			"$build/bin/hostthreads" --threads 1 --busy "$kind" --blocks $blocks 2>&1) ||
			{ fail "$kind: exit status $?: $out"; break; }
		jq -e '.verify == "pass" and .workload.busy_passes > 0 and
			.workload.busy_rate_resident > 0 and .kernels >= 5 and
			(.workload.busy_rate_migrating == null or .workload.busy_rate_migrating > 0)' \
			"$report" >/dev/null ||
			fail "$kind: report lacks a verified run with the busy side's speeds: $(jq -c '{verify, kernels, workload}' "$report")"
		grep -q "^hostthreads: busy $([ "$kind" = process ] && echo processes || echo threads): " <<<"$out" ||
			fail "$kind: no busy line: $out"
		jq -e '.workload.busy_rate_migrating != null' "$report" >/dev/null && break
		grep -q "not measured (no pass ended) passes per CPU second while blocks migrate" <<<"$out" ||
			fail "$kind, $blocks blocks: the migrating rate is absent but not said to be unmeasured: $out"
		[ $blocks = 4096 ] && fail "$kind: no busy pass ended while 4096 blocks migrated: $out"
	done
done
# split: main and the emulator's driver thread (at least) pinned at start,
# every GPU-side thread and busy thread or process seen on its side.
if [ "$(nproc)" -ge 2 ]; then
	for kind in managed process; do
		out=$("$build/bin/uvmemu" run --summary off --report "$report" --prefetch none -- \
			"$build/bin/hostthreads" --threads 1 --busy "$kind" --blocks 64 \
			--placement split 2>&1) || { fail "split $kind: exit status $?: $out"; continue; }
		jq -e '.verify == "pass" and .workload.placement_split == 1 and
			.workload.placement_pinned >= 2 and .workload.placement_held == 1' \
			"$report" >/dev/null ||
			fail "split $kind: not placed as asked: $(jq -c '{verify, workload}' "$report")"
		grep -q "placement split (program on CPU [0-9]*, busy side on [0-9]" <<<"$out" ||
			fail "split $kind: no placement in the log: $out"
	done
	cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
	err=$(taskset -c "$cpu" "$build/bin/hostthreads" --placement split 2>&1)
	rc=$?
	[ $rc = 2 ] || fail "split on one CPU: exit status $rc, expected 2"
	grep -q "needs 2 or more CPUs.*has 1" <<<"$err" || fail "split on one CPU: $err"
	# The experiment's table: a row per placement, each against its own K = 0.
	if command -v parallel >/dev/null; then
		exp=$(mktemp -d)
		"$2/bench/experiments/07-host-unmap/run" --build "$build" --out "$exp" --repeat 1 \
			--set 'policy: --backend remap' --set 'args.hostthreads: --blocks 64 --quiet' \
			--set 'args: --threads 0 --busy managed | --threads 0 --busy managed --placement split | --threads 1 --busy managed --placement split' \
			>"$exp/log" 2>&1 || fail "experiment 07 slice: $(tail -5 "$exp/log")"
		for row in '| remap | shared | - | 0 | .* | 1x | - |' '| remap | split | - | 0 | .* | 1x | - |' \
			'| remap | split | managed | 1 | .* | [0-9.]*x | [0-9.]* |'; do
			grep -q "^$row\$" "$exp/table.md" 2>/dev/null ||
				fail "experiment 07 slice: no row '$row' in $(cat "$exp/table.md" 2>/dev/null)"
		done
		rm -rf "$exp"
	fi
fi
err=$("$build/bin/hostthreads" --placement bogus 2>&1)
rc=$?
[ $rc = 2 ] || fail "--placement bogus: exit status $rc, expected 2"
grep -q "shared or split" <<<"$err" || fail "--placement bogus: $err"
err=$("$build/bin/hostthreads" --busy bogus 2>&1)
rc=$?
[ $rc = 2 ] || fail "--busy bogus: exit status $rc, expected 2"
grep -q "managed, plain or process" <<<"$err" || fail "--busy bogus: $err"
[ $fails = 0 ] || exit 1
echo "hostthreads: both busy kinds verify and report their speeds, under both placements"
