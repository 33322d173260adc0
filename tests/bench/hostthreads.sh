#!/usr/bin/env bash
# Description: experiment 07's hostthreads under the emulator, with one busy
# thread of the process and with one busy process (the control): every sum
# the GPU side read verifies (the migrating read and the resident re-reads),
# and the busy side's passes and its two speeds (migrating, resident) are in
# the report; a bad --busy names the accepted kinds and exits 2. Figures are
# not judged.
set -u
build=$1
report=$(mktemp)
trap 'rm -f "$report"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for kind in managed process; do
	out=$("$build/bin/uvmemu" run --summary off --report "$report" --prefetch none -- \
		"$build/bin/hostthreads" --threads 1 --busy "$kind" --blocks 256 2>&1) ||
		{ fail "$kind: exit status $?: $out"; continue; }
	jq -e '.verify == "pass" and .workload.busy_passes > 0 and
		.workload.busy_rate_migrating > 0 and .workload.busy_rate_resident > 0 and
		.kernels == 5' "$report" >/dev/null ||
		fail "$kind: report lacks a verified run with the busy side's speeds: $(jq -c '{verify, kernels, workload}' "$report")"
	grep -q "^hostthreads: busy $([ "$kind" = process ] && echo processes || echo threads): " <<<"$out" ||
		fail "$kind: no busy line: $out"
done
err=$("$build/bin/hostthreads" --busy bogus 2>&1)
rc=$?
[ $rc = 2 ] || fail "--busy bogus: exit status $rc, expected 2"
grep -q "managed, plain or process" <<<"$err" || fail "--busy bogus: $err"
[ $fails = 0 ] || exit 1
echo "hostthreads: both busy kinds verify and report their speeds"
