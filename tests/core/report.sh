#!/usr/bin/env bash
# Description: an emulated run's JSON report has every key the issue names,
# with the values of the run: the footprint and device memory it ran with,
# faults and batches, bytes each way, evictions at 1.5x oversubscription, the
# stage times, and the program's own verdict. The text summary goes to stderr.
# The headline is the GPU's modelled time under the model clock (gpu_s and
# the gpu section), absent under --clock real; a note says when the
# modelled time is CPU time (one sample). The main run is at the
# migration unit given ($3: 64k or 4k), which the report names and which
# sizes device memory and the first-access probe's block.
set -u
build=$1
page=${3:-64k}
kb=${page%k}
report=$(mktemp)
trap 'rm -f "$report"' EXIT
err=$("$build/bin/uvmemu" run --page-size "$page" --oversub 1.5 --report "$report" -- \
	"$build/tests/bin/probe" --footprint 16 2>&1 >/dev/null) || { echo "FAIL: probe failed: $err"; exit 1; }
fails=0
for key in config footprint_bytes device_mem_bytes wall_s roi_s roi_cpu_s kernels gpu_faults cpu_faults \
	batches bytes_h2d bytes_d2h blocks_h2d blocks_prefetched blocks_evicted \
	thrashed_blocks remote_bytes time_s verify fetch preprocess service unmap copy throttle \
	replay tracker_wait fault_latency late_wake late_wakes late_wake_share driver_wait driver_sched device_mem \
	oversub link dilation batch map_touch map_touch_first_us map_touch_again_us map_touch_blocks \
	map_touch_est_s; do
	grep -q "\"$key\":" "$report" || { echo "FAIL: key $key missing"; fails=$((fails + 1)); }
done
check() { grep -Eq "$1" "$report" || { echo "FAIL: report lacks $1"; fails=$((fails + 1)); }; }
check '"verify": "pass"'
check '"mode": "emulated"'
check '"footprint_bytes": 16777216'
# 16 MiB / 1.5 in whole blocks of the unit
check "\"device_mem_bytes\": $((16777216 * 2 / 3 / (kb * 1024) * kb * 1024))"
check "\"page_size\": \"$page\""
check '"kernels": 1'
check '"blocks_evicted": [1-9]'
check '"bytes_d2h": [1-9]'
check '"oversub": 1.5'
# The region of interest's CPU time is the whole process's over the region a
# workload marks (the probe marks none): some, and no more than every CPU
# busy for the whole region.
roi=$(mktemp)
if "$build/bin/uvmemu" run --oversub 1.25 --summary off --report "$roi" -- "$build/bin/vecadd" \
	--footprint 8M --quiet >/dev/null 2>&1; then
	jq -e --argjson n "$(nproc)" '.roi_s > 0 and .roi_cpu_s > 0 and .roi_cpu_s <= .roi_s * $n + 0.001' \
		"$roi" >/dev/null || {
		echo "FAIL: vecadd's roi_cpu_s $(jq .roi_cpu_s "$roi") is not within (0, roi_s $(jq .roi_s "$roi") x $(nproc) CPUs]"
		fails=$((fails + 1))
	}
else
	echo "FAIL: vecadd --footprint 8M failed under uvmemu"
	fails=$((fails + 1))
fi
rm -f "$roi"
# The machine's first-access cost: measured and read as a line (or, on a
# kernel without MADV_POPULATE_READ, the reason it was not), and its estimate
# counts every block the run mapped for the GPU: the far faults' migrations
# and zero-fills at least.
jq -e '.system as $s | (($s.map_touch_first_us > 0 and $s.map_touch_again_us > 0 and
	($s.map_touch | test("us per \($kb) KB block"))) or ($s.map_touch | startswith("not measured: "))) and
	$s.map_touch_est_s >= 0 and $s.map_touch_blocks >= .blocks_h2d + .blocks_zero_filled and
	$s.map_touch_blocks > 0' --arg kb "$kb" \
	"$report" >/dev/null || { echo "FAIL: system.map_touch* not as documented"; fails=$((fails + 1)); }
grep -q "^uvmemu: .*probe (emulated, model clock): verify pass, gpu [0-9.]* [mun]*s (the whole run: no roi); emulator's cost: wall" <<<"$err" || { echo "FAIL: no summary on stderr"; fails=$((fails + 1)); }
grep -q "^  gpu     1 kernels, " <<<"$err" || { echo "FAIL: summary lacks the gpu line"; fails=$((fails + 1)); }
jq -e '.clock == "model" and .gpu_s > 0 and .gpu.kernels == 1 and .gpu.faults > 0 and
	.gpu.batches > 0 and .gpu.faults <= .gpu_faults and .gpu_s_covers == "run" and
	.model.dilation_divides == "compute time"' \
	"$report" >/dev/null || { echo "FAIL: the model clock's figures are not as documented"; fails=$((fails + 1)); }
# Compute measured by CPU time makes a run one sample: the summary says so,
# and says nothing of it where compute is counted.
if [ "$(jq -r .model.compute "$report")" = cpu ]; then
	grep -q "^  note    compute is CPU time: .* one run is one sample" <<<"$err" ||
		{ echo "FAIL: CPU-time compute, and no note that one run is one sample"; fails=$((fails + 1)); }
elif grep -q "compute is CPU time" <<<"$err"; then
	echo "FAIL: counted compute ($(jq -r .model.compute "$report")), and the note on CPU time"
	fails=$((fails + 1))
fi
real=$(mktemp)
if "$build/bin/uvmemu" run --clock real --oversub 1.5 --summary off --report "$real" -- \
	"$build/tests/bin/probe" --footprint 16 >/dev/null 2>&1; then
	jq -e '.clock == "real" and (has("gpu_s") | not) and (has("gpu") | not) and
		.verify == "pass"' "$real" >/dev/null ||
		{ echo "FAIL: a --clock real report has model-clock figures"; fails=$((fails + 1)); }
else
	echo "FAIL: the probe failed under --clock real"; fails=$((fails + 1))
fi
rm -f "$real"
grep -q "^  faults  gpu [1-9]" <<<"$err" || { echo "FAIL: summary lacks the fault line"; fails=$((fails + 1)); }
[ $fails -eq 0 ] || { cat "$report"; echo "$err"; exit 1; }
echo "report complete"; cat "$report"
