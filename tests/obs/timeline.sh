#!/usr/bin/env bash
# Description: --trace DIR writes DIR/timeline.json, a Chrome trace-event
# file: valid JSON whose events carry ph, ts, pid and tid (and dur when
# complete), whose slices nest on every track (timeline_check.jq).
# Under --clock real: as many batch slices as the report has batches in
# both the real-time and the modelled-time process, the driver, link, worker
# and kernel tracks and both counters; link transfers last bytes / bandwidth
# in modelled time and D times that in real time; modelled time never runs
# ahead of real time / D. `uvmemu plot --timeline` rebuilds the driver's
# track, kernels and counters from the CSVs exactly, refuses to overwrite
# the run's own file, and names a missing input. A small --trace-events
# bound thins worker tracks, still nests, and the report says what was left
# out. Under --clock model, process 2 is the model's own records: a batch
# slice per modelled batch (the report's gpu.batches, their faults its
# gpu.faults), kernels at kernels.csv's modelled begin and end, each link
# booking lasting bytes / bandwidth, none in real time; the file says which
# way it was built, and `uvmemu plot --timeline` rebuilds process 2 exactly
# from the model's CSVs. Every run at the migration unit given ($3: 64k or
# 4k).
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
page=${3:-64k}
uvmemu=$build/bin/uvmemu
check=$src/tests/obs/timeline_check.jq
"$uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run() { # NAME OPTIONS... : a small oversubscribed ra run at dilation 2.5, traced
	local name=$1
	shift
	"$uvmemu" run --page-size "$page" --oversub 1.25 --dilation 2.5 --trace "$dir/$name" --summary on \
		--report "$dir/$name.json" "$@" -- "$build/bin/ra" --footprint 4M --updates 4000 \
		--quiet >"$dir/$name.out" 2>&1 ||
		{ echo "FAIL: the run $name failed:"; cat "$dir/$name.out"; exit 1; }
}
sound() { # FILE: the format's rules hold
	local problems
	jq -e . "$1" >/dev/null 2>&1 || { fail "$1 is not valid JSON"; return; }
	problems=$(jq -r -f "$check" "$1" 2>&1) || fail "$1: the checker stopped: $problems"
	[ -z "$problems" ] || fail "$1: $(echo "$problems" | head -5)"
}
count() { jq "[.traceEvents[] | select($2)] | length" "$1"; }

# The checker itself catches what it is for.
printf '%s' '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":5,"name":"a"},
	{"ph":"X","pid":1,"tid":1,"ts":2,"dur":5,"name":"b"},{"ph":"X","pid":1,"tid":2,"ts":1,"name":"c"},
	{"ph":"C","pid":1,"ts":1,"name":"d"},{"ph":"b","pid":1,"tid":0,"ts":1,"cat":"k","id":1,"name":"e"}]}' >"$dir/bad.json"
got=$(jq -r -f "$check" "$dir/bad.json")
for want in "'b' at 2 us overlaps 'a' partly" "without a duration" "without ph, ts, pid or tid" "left open"; do
	grep -qF "$want" <<<"$got" || fail "the checker misses '$want' in a bad file: $got"
done

run full --clock real --trace-faults on
tl=$dir/full/timeline.json
[ -s "$tl" ] || { echo "FAIL: no $tl"; exit 1; }
sound "$tl"
batches=$(jq .batches "$dir/full.json")
[ "$batches" -gt 0 ] || fail "the run had no batches"
# The trace queue never makes the driver wait: when the writer thread is
# starved (a loaded machine) a full queue drops records, which the report
# counts. Each batch slice missing must be one of those.
dropped=$(jq '.trace.dropped // 0' "$dir/full.json")
for pid in 1 2; do
	n=$(count "$tl" ".pid == $pid and .ph == \"X\" and .name == \"batch\"")
	[ "$n" -le "$batches" ] && [ "$n" -ge $((batches - dropped)) ] ||
		fail "process $pid: $n batch slices, the report $batches batches ($dropped trace records dropped)"
done
kernels=$(jq .kernels "$dir/full.json")
n=$(count "$tl" '.pid == 1 and .ph == "b" and .cat == "kernel"')
[ "$n" -eq "$kernels" ] || fail "$n kernel slices, the report $kernels kernels"
for what in '.cat == "stage" and .name == "service"' '.cat == "link" and .tid == 2' \
	'.cat == "cta"' '.cat == "fault" and .name == "far fault"' \
	'.ph == "C" and .name == "device memory in use"' '.ph == "C" and .name == "faults per batch"' \
	'.ph == "M" and .name == "thread_name" and (.args.name | test("^SM [0-9]+ worker"))'; do
	[ "$(count "$tl" "$what")" -gt 0 ] || fail "no event with $what"
done
jq -r .otherData.modelled_time "$tl" | grep -q "real time / dilation" &&
	[ "$(jq -r '.otherData.clock // "none"' "$tl")" = none ] ||
	fail "--clock real: otherData does not say process 2 is real time cut"
# The link's transfers: bytes / 16 GB/s (PCIe 3) modelled, 2.5 times that real.
bad=$(jq '[.traceEvents[] | select(.cat == "link" and .pid == 1)
	| select(((.dur * 1000 | round) - (.args.bytes * 2.5 / 16 | floor)) | fabs > 1)] | length' "$tl")
[ "$bad" -eq 0 ] || fail "$bad real-time transfers do not last bytes x 2.5 / 16 GB/s"
bad=$(jq '[.traceEvents[] | select(.cat == "link" and .pid == 2)
	| select((.dur * 1000 | round) > (.args.bytes / 16 | floor) + 1)] | length' "$tl")
[ "$bad" -eq 0 ] || fail "$bad modelled transfers last longer than bytes / 16 GB/s"
ahead=$(jq '[.traceEvents[] | select(.ph != "M")] | (map(select(.pid == 1) | .ts + (.dur // 0)) | max) as $r
	| (map(select(.pid == 2) | .ts + (.dur // 0)) | max) as $m | $m > $r / 2.5 + 0.001' "$tl")
[ "$ahead" = false ] || fail "modelled time runs ahead of real time / dilation"
[ "$(jq .trace.timeline.events_per_process "$dir/full.json")" -gt 0 ] || fail "the report has no timeline size"
[ "$(jq .trace.timeline.dropped "$dir/full.json")" -eq 0 ] || fail "a small run dropped timeline records"

# Rebuilt from the CSVs: the driver's track, kernels and counters are the run's.
"$uvmemu" plot --timeline "$dir/full" >"$dir/re.out" 2>&1
[ $? -eq 2 ] && grep -q "exists" "$dir/re.out" || fail "plot --timeline overwrote the run's own timeline"
"$uvmemu" plot --timeline --out "$dir/re.json" "$dir/full" >"$dir/re.out" 2>&1 ||
	fail "plot --timeline failed: $(cat "$dir/re.out")"
sound "$dir/re.json"
same='[.traceEvents[] | select(.cat == "driver" or .cat == "stage" or .cat == "kernel" or .ph == "C")]'
cmp -s <(jq -c "$same" "$tl") <(jq -c "$same" "$dir/re.json") ||
	fail "the rebuilt driver track, kernels or counters differ from the run's"
[ "$(count "$dir/re.json" '.cat == "fault"')" -gt 0 ] || fail "the rebuilt timeline has no fault stalls"
"$uvmemu" plot --timeline "$dir/nothing" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] && grep -q "nothing/batches.csv" "$dir/err" || fail "a missing trace: $(cat "$dir/err")"

# A small bound: worker tracks thinned, the rest still sound, the report says so.
run small --clock real --trace-events 1000
tl=$dir/small/timeline.json
sound "$tl"
shown=$(jq .otherData.worker_tracks_shown "$tl") all=$(jq .otherData.worker_tracks "$tl")
[ "$shown" -lt "$all" ] || fail "--trace-events 1000 kept all $all worker tracks"
[ "$(jq '.traceEvents | length' "$tl")" -lt 3000 ] || fail "--trace-events 1000 wrote $(jq '.traceEvents | length' "$tl") events"
grep -q "records left out" "$dir/small.out" || fail "the summary does not say the timeline was bounded"

# The model clock: process 2 is the model's records, not cuts of real time.
run model --clock model --trace-faults on
tl=$dir/model/timeline.json
sound "$tl"
[ "$(jq -r .otherData.clock "$tl")" = model ] &&
	jq -r .otherData.modelled_time "$tl" | grep -q "model clock's own records" ||
	fail "--clock model: otherData does not say process 2 is the model's records"
gpu_batches=$(jq .gpu.batches "$dir/model.json")
[ "$gpu_batches" -gt 0 ] || fail "the model clock's run had no modelled batches"
n=$(count "$tl" '.pid == 2 and .ph == "X" and .name == "batch"')
[ "$n" -eq "$gpu_batches" ] || fail "process 2: $n batch slices, the report $gpu_batches modelled batches"
n=$(count "$tl" '.pid == 1 and .ph == "X" and .name == "batch"')
[ "$n" -eq "$(jq .batches "$dir/model.json")" ] || fail "process 1: $n batch slices, the report $(jq .batches "$dir/model.json") batches"
n=$(jq '[.traceEvents[] | select(.pid == 2 and .name == "batch") | .args.faults] | add' "$tl")
[ "$n" = "$(jq .gpu.faults "$dir/model.json")" ] || fail "process 2's batches hold $n faults, the report $(jq .gpu.faults "$dir/model.json")"
[ "$(count "$tl" '.pid == 2 and .cat == "stage"')" -eq 0 ] || fail "process 2 has the real batches' stages"
n=$(count "$tl" '.pid == 2 and .ph == "b" and .cat == "kernel"')
[ "$n" -eq "$(jq .kernels "$dir/model.json")" ] || fail "process 2: $n kernel slices, the report $(jq .kernels "$dir/model.json") kernels"
# Kernels at their modelled begin and end (kernels.csv, seconds) in us.
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%.3f %.3f\n", $c["model_begin_s"] * 1e6, $c["model_end_s"] * 1e6 }' "$dir/model/kernels.csv")
got=$(jq -r '[.traceEvents[] | select(.pid == 2 and .cat == "kernel")]
	| range(0; length; 2) as $i | "\(.[$i].ts) \(.[$i + 1].ts)"' "$tl" | awk '{ printf "%.3f %.3f\n", $1, $2 }')
[ -n "$want" ] && [ "$got" = "$want" ] || fail "process 2's kernels are not at their modelled begin and end: '$got', want '$want'"
# The link's bookings, in modelled time only: bytes / 16 GB/s each.
[ "$(count "$tl" '.pid == 2 and .cat == "link"')" -gt 0 ] || fail "process 2 has no link bookings"
[ "$(count "$tl" '.pid == 1 and .cat == "link"')" -eq 0 ] || fail "process 1 has link transfers the model clock never booked in real time"
bad=$(jq '[.traceEvents[] | select(.cat == "link" and .pid == 2)
	| select(((.dur * 1000 | round) - (.args.bytes / 16 | floor)) | fabs > 1)] | length' "$tl")
[ "$bad" -eq 0 ] || fail "$bad modelled transfers do not last bytes / 16 GB/s"
[ "$(jq '.gpu.stall_s > 0' "$dir/model.json")" = false ] ||
	[ "$(count "$tl" '.pid == 2 and .name == "far-fault stall"')" -gt 0 ] ||
	fail "the report has modelled stalls, process 2 none"
for f in gpu_batches gpu_transfers gpu_stalls; do
	[ -s "$dir/model/$f.csv" ] || fail "--clock model wrote no $f.csv"
	[ ! -e "$dir/full/$f.csv" ] || fail "--clock real wrote $f.csv"
done
[ $(($(wc -l <"$dir/model/gpu_batches.csv") - 1)) -eq "$gpu_batches" ] ||
	fail "gpu_batches.csv: $(($(wc -l <"$dir/model/gpu_batches.csv") - 1)) rows, the report $gpu_batches modelled batches"
"$uvmemu" plot --timeline --out "$dir/re-model.json" "$dir/model" >"$dir/re.out" 2>&1 ||
	fail "plot --timeline failed on the model clock's CSVs: $(cat "$dir/re.out")"
sound "$dir/re-model.json"
cmp -s <(jq -c '[.traceEvents[] | select(.pid == 2)]' "$tl") \
	<(jq -c '[.traceEvents[] | select(.pid == 2)]' "$dir/re-model.json") ||
	fail "process 2 rebuilt from the model clock's CSVs differs from the run's"
[ $fails -eq 0 ] || exit 1
echo "timeline.json is sound, complete and bounded; process 2 is the model's own under --clock model"
