#!/usr/bin/env bash
# Description: advice that names a device over two GPUs (issue 33), under
# the given backend, clock and page size, with --check 1 (the residency
# invariants and every view's page tables after every batch):
#   - integrity: preferred location and accessed-by on data both GPUs and
#     the host read and write, 8 MiB buffers over 6 MiB per GPU (at 4 KB
#     pages 4 over 3; evictions zap peer mappings), and read-mostly data
#     read on both GPUs, written on one and read on both again (the write
#     collapses every copy); every word checked;
#   - prefer: data on GPU 1, a kernel on GPU 0. Under remap, with
#     SetPreferredLocation(1) it stays there (blocks_p2p 0) and GPU 0 maps
#     it (blocks_peer_mapped > 0); without the advice it migrates. Under
#     copy (no coherent peer mapping) it migrates either way;
#   - accessed: GPU 0 given accessed-by on data on GPU 1 and on the host
#     takes no far fault (remap), its mappings following the data.
# usage: advice.sh BUILD_DIR SOURCE_DIR BACKEND CLOCK PAGE_SIZE
set -u
build=$1 backend=$3 clock=$4 page=$5
uvmemu=$build/bin/uvmemu
prog=$build/bin/multi-gpu-advice
"$uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { # NAME UVMEMU_OPTIONS... -- PROGRAM_ARGUMENTS...
	local name=$1 opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	"$uvmemu" run --gpus 2 --backend "$backend" --clock "$clock" --page-size "$page" \
		--check 1 "${opts[@]}" --report "$dir/$name.json" --summary off -- \
		"$prog" "$@" >"$dir/$name.out" 2>&1 ||
		{ echo "FAIL: the run $name failed:"; cat "$dir/$name.out"; exit 1; }
	jq -e '.verify == "pass"' "$dir/$name.json" >/dev/null ||
		fail "$name: the report does not say verify pass"
}
q() { jq -r "$2" "$dir/$1.json"; }

# At 4 KB, half the buffers at the same ratio: 16 times the pages, each
# walked by --check after every batch.
size=8 mem=6M
[ "$page" = 4k ] && size=4 mem=3M
run integrity --device-mem "$mem" -- integrity "$size"
echo "integrity: blocks_peer_mapped $(q integrity .blocks_peer_mapped), blocks_p2p $(q integrity .blocks_p2p), blocks_evicted $(q integrity .blocks_evicted)"
[ "$(q integrity .blocks_evicted)" -gt 0 ] || fail "integrity: nothing evicted"
[ "$(q integrity .blocks_duplicated)" -gt 0 ] || fail "integrity: read-mostly data was not duplicated"

run advised -- prefer advise 8
run plain -- prefer 8
echo "prefer: advised blocks_p2p $(q advised .blocks_p2p), blocks_peer_mapped $(q advised .blocks_peer_mapped); plain blocks_p2p $(q plain .blocks_p2p)"
[ "$(q plain .blocks_p2p)" -gt 0 ] || fail "without advice the data did not migrate GPU to GPU"
[ "$(q plain .blocks_peer_mapped)" = 0 ] || fail "without advice GPU 0 mapped data from GPU 1"
if [ "$backend" = remap ]; then
	[ "$(q advised .blocks_p2p)" = 0 ] || fail "with GPU 1 preferred the data migrated ($(q advised .blocks_p2p) blocks)"
	[ "$(q advised .blocks_peer_mapped)" -gt 0 ] || fail "with GPU 1 preferred GPU 0 mapped nothing from it"
	[ "$(q advised '.gpus[0].peer_mapped')" = "$(q advised .blocks_peer_mapped)" ] ||
		fail "GPU 0's peer mappings are not blocks_peer_mapped"
	[ "$(q advised '.gpus[1].peer_mapped')" = 0 ] || fail "GPU 1 mapped from a peer"
	[ "$(q advised .gpus[0].far_faults)" -gt 0 ] || fail "GPU 0's first touches took no far fault"
else
	# The copy backend honours a preferred location by migration.
	[ "$(q advised .blocks_p2p)" -gt 0 ] || fail "copy: with GPU 1 preferred the data did not migrate"
	[ "$(q advised .blocks_peer_mapped)" = 0 ] || fail "copy: a peer mapping of private frames"
fi

if [ "$backend" = remap ]; then
	# Where GMMU accessors count (--gmmu count), the access counters see
	# GPU 0's accesses through its mappings and the policy migrates the
	# data once they pass its threshold, as the driver does where counter
	# migrations are on. The subject here is the mappings: counts stay
	# fault-based (--gmmu measure; a build without accessors ignores it).
	run accessed --gmmu measure -- accessed 8
	echo "accessed: GPU 0 far faults $(q accessed '.gpus[0].far_faults'), peer_mapped $(q accessed '.gpus[0].peer_mapped'), blocks_remote $(q accessed .blocks_remote), blocks_p2p $(q accessed .blocks_p2p)"
	[ "$(q accessed '.gpus[0].far_faults')" = 0 ] ||
		fail "GPU 0, accessed-by, took $(q accessed '.gpus[0].far_faults') far faults"
	[ "$(q accessed '.gpus[0].peer_mapped')" -gt 0 ] || fail "GPU 0 mapped nothing from GPU 1"
	[ "$(q accessed .blocks_remote)" -gt 0 ] || fail "GPU 0 mapped no host data"
	[ "$(q accessed .blocks_p2p)" = 0 ] || fail "data accessed by GPU 0 migrated to it"
fi
[ $fails -eq 0 ] && echo PASS
exit $((fails > 0))
