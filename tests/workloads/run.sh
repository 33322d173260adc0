#!/usr/bin/env bash
# Description: runs one workload at its small test size in one mode and checks
# that it verifies (or that --footprint lands within 5% of the request). The
# native run's --output must follow the documented format (workloads/README.md)
# and an emulated run's must be the same file, byte for byte.
# usage: run.sh BUILD_DIR SOURCE_DIR WORKLOAD MODE [DIR]
#   DIR: the program's directory in the source tree, with its test-args and
#        footprint-args (default workloads/WORKLOAD; workloads/uvmsmart/NAME
#        for us-NAME)
#   MODE: native | footprint | emu-lru2m | emu-random (remap backend, --check 1)
#         | emu-copy (copy backend, lru2m, --check 1)
#         | uvmmu-lru2m | uvmmu-random (--policy uvmmu: the UVMMU fault path)
#         | emu-mprotect (remap, lru2m, --fault-capture mprotect)
#         | emu-real (emu-lru2m under --clock real; the others run the
#           model clock)
#         | emu-4k (emu-lru2m at --page-size 4k: 4 KB migration unit)
#         | emu-copy-4k (emu-copy at --page-size 4k)
#         | emu-turns (emu-lru2m under --schedule model: workers in turns)
# emu-lru2m runs the default prefetcher (tree); emu-random, emu-copy and
# emu-mprotect run --prefetch none: at test sizes device memory holds a few
# vablocks, and tree prefetching whole vablocks into it evicts most of what it
# brings before use (the thrash the adaptive paper describes), which made
# those runs 3-12x longer without testing anything the lru2m run does not.
set -u
build=$1 src=$2 name=$3 mode=$4 dir=$2/${5:-workloads/$3}
bin=$build/bin/$name
args=$(cat "$dir/test-args")
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check_output FILE: the header, then sections "# section WHAT COUNT" each
# followed by exactly COUNT numbers, one a line; at least one section.
check_output() {
	awk -v wl="$name" '
	function bad(why) { printf "FAIL: --output line %d: %s: %s\n", NR, why, $0; err = 1; exit 1 }
	NR == 1 { if ($0 != "# uvmemu-workload-output 1") bad("not the format header"); next }
	NR == 2 { if ($0 != "# workload " wl) bad("not the workload line"); next }
	/^# section / {
		if (left) bad("a section ends early");
		if (NF != 4 || $4 !~ /^[0-9]+$/ || $4 == 0) bad("bad section line");
		left = $4; sections++; next
	}
	{
		if (!left) bad("a value outside any section");
		if ($0 !~ /^-?([0-9]+|[0-9]*\.?[0-9]+(e[-+][0-9]+)?|inf|nan)$/) bad("not a number");
		left--
	}
	END {
		if (err) exit 1;
		if (left) { print "FAIL: --output ends inside a section"; exit 1 }
		if (!sections) { print "FAIL: --output has no section"; exit 1 }
		printf "output: %d section(s), %d lines\n", sections, NR
	}' "$1"
}

case $mode in
native)
	out=$("$bin" $args --quiet --output "$tmp/out" 2>&1); rc=$?
	check_output "$tmp/out" || rc=1
	;;
footprint)
	# The request is a round size; the workload prints the exact footprint.
	# A workload whose work grows faster than its data (gemm: n^3 steps on
	# 12 n^2 bytes) adds the arguments in its footprint-args (--dry-run).
	# A workload whose sizes come in steps coarser than 5% (fft-1d: powers
	# of two) names the round sizes it can land on in footprint-sizes.
	fargs= sizes="24M 48M"
	[ -f "$dir/footprint-args" ] && fargs=$(cat "$dir/footprint-args")
	[ -f "$dir/footprint-sizes" ] && sizes=$(cat "$dir/footprint-sizes")
	for req in $sizes; do
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
emu-lru2m | emu-random | emu-copy | uvmmu-lru2m | uvmmu-random | emu-mprotect | emu-real | emu-4k | emu-copy-4k | emu-turns)
	policy=${mode#*-} backend=remap path=() prefetch=(--prefetch none)
	[ "$mode" = emu-lru2m ] && prefetch=()
	[ "$mode" = emu-real ] && policy=lru2m prefetch=() path=(--clock real)
	[ "$mode" = emu-4k ] && policy=lru2m prefetch=() path=(--page-size 4k)
	[ "$mode" = emu-turns ] && policy=lru2m prefetch=() path=(--schedule model)
	[ "$mode" = emu-mprotect ] && policy=lru2m path=(--fault-capture mprotect)
	[ "$mode" = emu-copy ] && policy=lru2m backend=copy
	[ "$mode" = emu-copy-4k ] && policy=lru2m backend=copy prefetch=() path=(--page-size 4k)
	[ "${mode%%-*}" = uvmmu ] && path=(--policy uvmmu)
	report=$(mktemp) check=1
	# --check 1: every batch is followed by a walk of every residency
	# invariant, counts and page tables alike. The UVMMU path checks after
	# every pass, which are many and small (six times the run's length):
	# its runs check the data only, and tests/core/test_uvmmu.c checks the
	# invariants on that path.
	[ "${mode%%-*}" = uvmmu ] && check=0
	out=$("$build/bin/uvmemu" run "${path[@]}" "${prefetch[@]}" --oversub 1.5 --evict "$policy" \
		--backend $backend \
		--check $check --report "$report" --summary off -- "$bin" $args --quiet \
		--output "$tmp/emu" 2>&1); rc=$?
	echo "$out"
	grep -q '"verify": "pass"' "$report" || { echo "FAIL: report does not say verify pass"; cat "$report"; rc=1; }
	grep -Eq '"blocks_evicted": [1-9]' "$report" || { echo "FAIL: nothing was evicted at 1.5x"; rc=1; }
	if [ "$mode" = emu-mprotect ] && ! grep -Eq '"signal_faults": [1-9]' "$report"; then
		echo "FAIL: no fault went through the signal path"; rc=1
	fi
	if [ "${mode%%-*}" = uvmmu ] && ! grep -Eq '"uvmmu_faults": [1-9]' "$report"; then
		echo "FAIL: no fault went through the UVMMU path"; rc=1
	fi
	rm -f "$report"
	"$bin" $args --quiet --output "$tmp/native" >/dev/null 2>&1 ||
		{ echo "FAIL: the native run for comparison failed"; rc=1; }
	cmp "$tmp/native" "$tmp/emu" || { echo "FAIL: emulated --output differs from native"; rc=1; }
	exit $rc
	;;
*)
	echo "unknown mode $mode"; exit 2 ;;
esac
echo "$out"
grep -q "^$name: verify pass" <<<"$out" || { echo "FAIL: no 'verify pass' line"; exit 1; }
exit $rc
