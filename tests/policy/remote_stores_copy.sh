#!/usr/bin/env bash
# Description: zero-copy stores under the copy backend. Adaptive's REMOTE
# blocks get device copies that take the GPU's stores; whatever drops a
# copy (sampling, a CPU touch, a migration of the block) must write back
# what the GPU stored, or the host's data is lost. nw (whose stores reach
# blocks it first read remotely) and srad_v2 verify exactly against their
# CPU references fitting and oversubscribed, at both migration units and
# under both clocks, with sampling every millisecond so that copies are
# dropped during the kernels too; the runs wrote some copies back.
# Where GMMU accessors are built in, they only measure (--gmmu measure, so
# that counts come from far faults and sampling, which drop copies), and
# once count (--gmmu count: copies then mostly migrate with their stores).
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
fails=0
n=0
back=0
v() { jq -r ".$2" "$dir/$1.json"; }
run() { # name, workload, uvmemu options...
	local name=$1 wl=$2
	shift 2
	n=$((n + 1))
	"$build/bin/uvmemu" run --summary off --backend copy --policy adaptive --gmmu measure \
		--remote-sample-period 1ms --report "$dir/$name.json" "$@" \
		-- "$build/bin/$wl" --footprint 4M --quiet >/dev/null 2>"$dir/err" ||
		{ echo "FAIL: $name: exit status $?: $(head -3 "$dir/err")"; fails=$((fails + 1)); return; }
	[ "$(v "$name" verify)" = pass ] ||
		{ echo "FAIL: $name: did not verify"; fails=$((fails + 1)); }
	back=$((back + $(v "$name" blocks_remote_written_back)))
	echo "$name: $(v "$name" blocks_remote) remote mappings, $(v "$name" blocks_remote_written_back) written back, verify $(v "$name" verify)"
}
run nw-fits nw --oversub 0.8
run nw-oversub nw --oversub 1.25
run nw-fits-4k nw --oversub 0.8 --page-size 4k
run nw-fits-real nw --oversub 0.8 --clock real
run srad-fits srad_v2 --oversub 0.8
run srad-oversub srad_v2 --oversub 1.25
run nw-fits-count nw --oversub 0.8 --gmmu count
[ $back -gt 0 ] || { echo "FAIL: no run wrote a remote copy back: nothing here tested the write-back"; fails=$((fails + 1)); }
[ $fails = 0 ] || exit 1
echo "remote stores under copy: $n runs verified"
