#!/usr/bin/env bash
# Description: the report, summary, traces and timeline per GPU (--gpus).
# mgpu-stream --mode peer under --gpus 2: the report's gpus array has an
# entry per GPU, GPU 1 took far faults and gained copies, the far faults add
# up to gpu_faults, and the peer link (0, 1) booked bytes_p2p from GPU 0 to
# GPU 1; the summary has a line per GPU and one for the link; the timeline
# has the "peer link: GPU 0 to GPU 1" track, whose slices carry bytes_p2p;
# faults.csv ends in gpu_id. Under --evict-to peer with little device
# memory, the GPUs' evictions by destination add up to blocks_evicted and
# blocks_evicted_peer. A run of one GPU has neither array, no such summary
# line and no peer link track.
set -u
build=$(cd "$1" && pwd)
uvmemu=$build/bin/uvmemu
prog=$build/bin/mgpu-stream
"$uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { # NAME UVMEMU_OPTIONS...: mgpu-stream --mode peer, traced
	local name=$1
	shift
	"$uvmemu" run "$@" --trace "$dir/$name" --trace-faults on --report "$dir/$name.json" \
		--summary on -- "$prog" --footprint 16M --iters 2 --mode peer >"$dir/$name.out" 2>&1 ||
		{ echo "FAIL: the run $name failed:"; cat "$dir/$name.out"; exit 1; }
}
q() { jq -r "$2" "$dir/$1.json"; }

run two --gpus 2
[ "$(q two '.gpus | length')" = 2 ] || fail "gpus has $(q two '.gpus | length') entries, not 2"
[ "$(q two '.gpus[1].far_faults')" -gt 0 ] || fail "GPU 1 took no far fault"
[ "$(q two '.gpus[1].blocks_in')" -gt 0 ] || fail "GPU 1 gained no copy"
[ "$(q two '[.gpus[].far_faults] | add')" = "$(q two .gpu_faults)" ] ||
	fail "the GPUs' far faults do not add up to gpu_faults $(q two .gpu_faults)"
p2p=$(q two .bytes_p2p)
[ "$p2p" -gt 0 ] || fail "no GPU-GPU migration under --mode peer"
[ "$(q two '.peer_links[] | select(.a == 0 and .b == 1) | .bytes_a_to_b')" = "$p2p" ] ||
	fail "the peer link 0 -> 1 booked $(q two '.peer_links[0].bytes_a_to_b'), bytes_p2p $p2p"
grep -q '^  gpu 0   [0-9]* far faults' "$dir/two.out" || fail "no summary line for GPU 0"
grep -q '^  gpu 1   [0-9]* far faults' "$dir/two.out" || fail "no summary line for GPU 1"
grep -q '^  peer    0<->1 ' "$dir/two.out" || fail "no summary line for the peer link"
tl=$dir/two/timeline.json
[ "$(jq '[.traceEvents[] | select(.ph == "M" and .args.name == "peer link: GPU 0 to GPU 1")] | length' "$tl")" -gt 0 ] ||
	fail "the timeline has no peer link track"
[ "$(jq '[.traceEvents[] | select(.cat == "peer link" and .name == "GPU 0 to GPU 1") | .args.bytes] | add' "$tl")" = "$p2p" ] ||
	fail "the peer link track's slices do not carry bytes_p2p"
head -1 "$dir/two/faults.csv" | grep -q ',gpu_id$' || fail "faults.csv has no gpu_id column last"
awk -F, 'NR > 1 && $2 == "gpu" && $11 !~ /^[01]$/ { bad++ } END { exit bad > 0 }' "$dir/two/faults.csv" ||
	fail "a far fault's gpu_id is not 0 or 1"
# The modelled batches say whose fault buffer they read: gpu_batches.csv's
# last column and the timeline's batch slices, as many per GPU as its
# gpus[].batches.
gb=$dir/two/gpu_batches.csv
head -1 "$gb" | grep -q ',gpu$' || fail "gpu_batches.csv has no gpu column last"
for g in 0 1; do
	rows=$(awk -F, -v g=$g 'NR > 1 && $NF == g' "$gb" | wc -l)
	[ "$rows" = "$(q two ".gpus[$g].batches")" ] ||
		fail "gpu_batches.csv has $rows rows of GPU $g, the report $(q two ".gpus[$g].batches") batches"
	slices=$(jq --argjson g $g '[.traceEvents[] | select(.pid == 2 and .name == "batch" and .args.gpu == $g)] | length' "$tl")
	[ "$slices" = "$rows" ] || fail "the timeline has $slices modelled batch slices of GPU $g, gpu_batches.csv $rows"
done

run evict --gpus 2 --device-mem 12M --evict-to peer
[ "$(q evict '.blocks_evicted_peer')" -gt 0 ] || fail "nothing was evicted to a peer"
[ "$(q evict '[.gpus[] | .evicted_to_host + .evicted_to_peer] | add')" = "$(q evict .blocks_evicted)" ] ||
	fail "the GPUs' evictions do not add up to blocks_evicted $(q evict .blocks_evicted)"
[ "$(q evict '[.gpus[].evicted_to_peer] | add')" = "$(q evict .blocks_evicted_peer)" ] ||
	fail "the GPUs' evictions to a peer do not add up to blocks_evicted_peer"
[ "$(q evict '[.peer_links[] | .bytes_a_to_b + .bytes_b_to_a] | add')" = "$(q evict .bytes_p2p)" ] ||
	fail "the peer links booked other than bytes_p2p under --evict-to peer"

run one
[ "$(q one 'has("gpus") or has("peer_links")')" = false ] || fail "a run of one GPU has a gpus or peer_links array"
grep -q '^  gpu 0 ' "$dir/one.out" && fail "a run of one GPU has a per-GPU summary line"
grep -q '^  peer ' "$dir/one.out" && fail "a run of one GPU has a peer link line"
[ "$(jq '[.traceEvents[] | select(.cat == "peer link" or (.ph == "M" and (.args.name | tostring | startswith("peer link"))))] | length' "$dir/one/timeline.json")" = 0 ] ||
	fail "a run of one GPU's timeline has a peer link track"

[ $fails -eq 0 ] && echo "ok: the report, summary, faults.csv and timeline per GPU"
exit $((fails > 0))
