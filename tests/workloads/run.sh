#!/usr/bin/env bash
# Description: runs one workload at its small test size in one mode and checks
# that it verifies (or that --footprint lands within 5% of the request).
# usage: run.sh BUILD_DIR SOURCE_DIR WORKLOAD MODE
#   MODE: native | footprint | emu-lru2m | emu-random (remap backend, --check 1)
#         | emu-copy (copy backend, lru2m, --check 1)
set -u
build=$1 src=$2 name=$3 mode=$4
bin=$build/bin/$name
args=$(cat "$src/workloads/$name/test-args")
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

case $mode in
native)
	out=$("$bin" $args --quiet 2>&1); rc=$?
	;;
footprint)
	# The request is a round size; the workload prints the exact footprint.
	# A workload whose work grows faster than its data (gemm: n^3 steps on
	# 12 n^2 bytes) adds the arguments in its footprint-args (--dry-run).
	fargs=
	[ -f "$src/workloads/$name/footprint-args" ] && fargs=$(cat "$src/workloads/$name/footprint-args")
	for req in 24M 96M; do
		out=$("$bin" --footprint $req --quiet $fargs 2>&1); rc=$?
		echo "$out"
		[ $rc -eq 0 ] || { echo "FAIL: exit $rc at --footprint $req"; exit 1; }
		line=$(grep -E "^$name: footprint [0-9]+ bytes" <<<"$out" | head -1)
		[ -n "$line" ] || { echo "FAIL: no footprint line"; exit 1; }
		got=$(sed -E 's/.*footprint ([0-9]+) bytes.*/\1/' <<<"$line")
		want=$(numfmt --from=iec ${req})
		awk -v g="$got" -v w="$want" 'BEGIN { d = (g - w) / w; if (d < 0) d = -d;
			printf "footprint %d vs %d: %.2f%%\n", g, w, 100 * d; exit !(d <= 0.05) }' ||
			{ echo "FAIL: footprint off by more than 5%"; exit 1; }
	done
	exit 0
	;;
emu-lru2m | emu-random | emu-copy)
	policy=${mode#emu-} backend=remap
	[ "$mode" = emu-copy ] && policy=lru2m backend=copy
	report=$(mktemp)
	# --check 1: every batch is followed by a walk of every residency
	# invariant, counts and page tables alike.
	out=$("$build/bin/uvmemu" run --oversub 1.5 --evict "$policy" --backend $backend \
		--check 1 --report "$report" --summary off -- "$bin" $args --quiet 2>&1); rc=$?
	echo "$out"
	grep -q '"verify": "pass"' "$report" || { echo "FAIL: report does not say verify pass"; cat "$report"; rc=1; }
	grep -Eq '"blocks_evicted": [1-9]' "$report" || { echo "FAIL: nothing was evicted at 1.5x"; rc=1; }
	rm -f "$report"
	exit $rc
	;;
*)
	echo "unknown mode $mode"; exit 2 ;;
esac
echo "$out"
grep -q "^$name: verify pass" <<<"$out" || { echo "FAIL: no 'verify pass' line"; exit 1; }
exit $rc
