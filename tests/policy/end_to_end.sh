#!/usr/bin/env bash
# Description: every eviction policy and every prefetcher, end to end through
# `uvmemu run` at 1.25x oversubscription. ra (random updates) under each
# --evict must verify and evict; opt runs from a trace recorded by an earlier
# run (--record-trace), at 64k and, from the same trace, at --page-size 4k,
# and without one (or with a bad one) must stop at start with a one-line error. vecadd and bfs under each --prefetch must
# verify and evict; on vecadd (one CTA slot, for repeatable counts) the tree
# prefetcher must prefetch and need fewer batches than none. Prints one line
# of numbers per run.
set -u
build=$1
uvmemu=$build/bin/uvmemu
for prog in ra vecadd bfs; do
	if [ ! -x "$build/bin/$prog" ]; then
		echo "SKIP: $build/bin/$prog is not built"
		exit 77
	fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# num KEY FILE: the number after "KEY": in a JSON report.
# shellcheck source=../report_num.sh
. "$(dirname "$0")/../report_num.sh"

# run NAME REPORT ARGS... -- PROGRAM ARGS...: one emulated run; its report.
run() {
	local name=$1 report=$2
	shift 2
	if ! "$uvmemu" run --oversub 1.25 --summary off --report "$report" "$@" \
		>"$work/$name.out" 2>&1; then
		fail "$name: exited non-zero"
		cat "$work/$name.out"
		return 1
	fi
	grep -q '"verify": "pass"' "$report" || { fail "$name: verify is not pass"; return 1; }
	printf '%-22s batches %6s  prefetched %6s  evicted %6s  thrashed %6s  wall %ss\n' "$name" \
		"$(num batches "$report")" "$(num blocks_prefetched "$report")" \
		"$(num blocks_evicted "$report")" "$(num thrashed_blocks "$report")" \
		"$(num wall_s "$report")"
	[ "$(num blocks_evicted "$report")" -gt 0 ] || fail "$name: nothing was evicted"
}

ra=("$build/bin/ra" --footprint 16M --updates 32768)

# The eviction policies run without prefetching, which is not their subject
# and, with the default tree prefetcher pulling whole vablocks into a device
# memory of a few vablocks, made ra's runs several times longer; the default
# prefetcher under eviction is covered below and by tests/workloads (lru2m).
# The trace opt reads comes from an earlier run of the same program.
run ra-record "$work/record.json" --prefetch none --record-trace "$work/ra.csv" -- "${ra[@]}"
[ -s "$work/ra.csv" ] || fail "--record-trace wrote no trace"
head -n 1 "$work/ra.csv" | grep -qx 'launch,kernel,alloc,block,accesses,source' ||
	fail "the recorded trace lacks its header"

for evict in lru2m random nru lru64k seq-local tree lfu lfu2m reverse cpc opt; do
	extra=()
	case $evict in
	cpc) extra=(--dispatch switch) ;;
	opt) extra=(--opt-trace "$work/ra.csv") ;;
	esac
	run "ra-evict-$evict" "$work/ra-$evict.json" --prefetch none --evict "$evict" "${extra[@]}" \
		-- "${ra[@]}"
done
# The trace names 64 KB blocks at either unit (obs/trace.h): recorded at 64k,
# it drives opt at --page-size 4k.
run ra-evict-opt-4k "$work/ra-opt-4k.json" --page-size 4k --prefetch none --evict opt \
	--opt-trace "$work/ra.csv" -- "${ra[@]}"

# ETC (--policy etc): CPC's baseline with proactive eviction; once memory
# has been full, blocks go ahead of need, and CPC + ETC takes cpc's victims.
run ra-etc "$work/ra-etc.json" --policy etc -- "${ra[@]}"
[ "$(num blocks_proactive_evicted "$work/ra-etc.json")" -gt 0 ] ||
	fail "ra-etc: nothing was evicted ahead of need"
run ra-cpc-etc "$work/ra-cpc-etc.json" --policy etc --dispatch switch --evict cpc -- "${ra[@]}"
[ "$(num blocks_proactive_evicted "$work/ra-cpc-etc.json")" -gt 0 ] ||
	fail "ra-cpc-etc: nothing was evicted ahead of need"

# opt without a usable trace stops before the program runs, saying why, on one line.
expect_start_error() {
	local what=$1 want=$2
	shift 2
	if "$uvmemu" run --oversub 1.25 --summary off --evict opt "$@" -- "${ra[@]}" \
		>"$work/err.out" 2>&1; then
		fail "opt $what: the run succeeded"
		return
	fi
	grep -q "^uvmemu: .*$want" "$work/err.out" || {
		fail "opt $what: no error naming '$want'"
		cat "$work/err.out"
	}
	grep -q 'verify' "$work/err.out" && fail "opt $what: the program ran"
}
expect_start_error "without --opt-trace" "needs --opt-trace"
expect_start_error "with a missing file" "--opt-trace $work/none.csv: No such file" \
	--opt-trace "$work/none.csv"
printf 'launch,kernel,alloc,block,accesses,source\n0,k,1,x,1,faults\n' >"$work/bad.csv"
expect_start_error "with a malformed file" "--opt-trace $work/bad.csv:2: not a row" \
	--opt-trace "$work/bad.csv"

for prog in vecadd bfs; do
	for prefetch in none seq64k tree vablock; do
		run "$prog-prefetch-$prefetch" "$work/$prog-$prefetch.json" --prefetch "$prefetch" \
			-- "$build/bin/$prog" --footprint 16M
	done
done
# Prefetching against none on the driver's batches: with one CTA slot the
# faults arrive one at a time, so the counts repeat run to run (with many
# workers they depend on timing, and vecadd's CPU check afterwards adds the
# same CPU-fault batches to both).
for prefetch in none tree; do
	run "vecadd-1slot-$prefetch" "$work/vecadd-1slot-$prefetch.json" --sms 1 --ctas-per-sm 1 \
		--prefetch "$prefetch" -- "$build/bin/vecadd" --footprint 16M
done
none=$work/vecadd-1slot-none.json tree=$work/vecadd-1slot-tree.json
if [ -s "$none" ] && [ -s "$tree" ]; then
	[ "$(num blocks_prefetched "$tree")" -gt 0 ] ||
		fail "vecadd: the tree prefetcher prefetched nothing"
	[ "$(num batches "$tree")" -lt "$(num batches "$none")" ] ||
		fail "vecadd: the tree prefetcher did not need fewer batches than none"
	[ "$(num blocks_prefetched "$none")" -eq 0 ] || fail "vecadd: none prefetched"
fi

[ $fails -eq 0 ] || exit 1
echo "every policy ran end to end"
