#!/usr/bin/env bash
# Description: --trace DIR writes DIR/timeline.json, a Chrome trace-event
# file: valid JSON whose events carry ph, ts, pid and tid (and dur when
# complete), whose slices nest on every track (timeline_check.jq), with as
# many batch slices as the report has batches in both the real-time and the
# modelled-time process, the driver, link, worker and kernel tracks and both
# counters; link transfers last bytes / bandwidth in modelled time and D
# times that in real time; modelled time never runs ahead of real time / D.
# `uvmemu plot --timeline` rebuilds the driver's track, kernels and counters
# from the CSVs exactly, refuses to overwrite the run's own file, and names a
# missing input. A small --trace-events bound thins worker tracks, still
# nests, and the report says what was left out.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
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
	"$uvmemu" run --oversub 1.25 --dilation 2.5 --trace "$dir/$name" --summary on \
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

run full --trace-faults on
tl=$dir/full/timeline.json
[ -s "$tl" ] || { echo "FAIL: no $tl"; exit 1; }
sound "$tl"
batches=$(jq .batches "$dir/full.json")
[ "$batches" -gt 0 ] || fail "the run had no batches"
for pid in 1 2; do
	n=$(count "$tl" ".pid == $pid and .ph == \"X\" and .name == \"batch\"")
	[ "$n" -eq "$batches" ] || fail "process $pid: $n batch slices, the report $batches batches"
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
run small --trace-events 1000
tl=$dir/small/timeline.json
sound "$tl"
shown=$(jq .otherData.worker_tracks_shown "$tl") all=$(jq .otherData.worker_tracks "$tl")
[ "$shown" -lt "$all" ] || fail "--trace-events 1000 kept all $all worker tracks"
[ "$(jq '.traceEvents | length' "$tl")" -lt 3000 ] || fail "--trace-events 1000 wrote $(jq '.traceEvents | length' "$tl") events"
grep -q "records left out" "$dir/small.out" || fail "the summary does not say the timeline was bounded"
[ $fails -eq 0 ] || exit 1
echo "timeline.json is sound, complete and bounded"
