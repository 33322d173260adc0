#!/usr/bin/env bash
# Description: with emu-gpu's GMMU accessors built in, zero-copy traffic is
# charged for what the kernel really moves. vecadd under --migrate pin-host
# and the remap backend reads a and b (1 MiB each) in REMOTE blocks, every
# warp a whole 128-byte line of each: the report charges exactly 2 MiB in
# 16384 link transactions, all of it booked on the modelled link (gpu
# section), and the mapping charges nothing of its own. With --gmmu measure
# the accessors only measure: the same exact figure is reported beside the
# sampling estimate that is charged, with the estimate's error. Under the
# copy backend the same: its device copy of a REMOTE block is the
# emulator's view, not traffic (it had been charged beside the sectors,
# 4 MiB in all, half of it booked as transfers).
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The sanitizer build preloads an instrumented library ahead of the runtime.
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
for m in count measure; do
	"$build/bin/uvmemu" run --summary off --clock model --dilation 1 --backend remap \
		--migrate pin-host --gmmu "$m" --report "$dir/$m.json" \
		-- "$build/bin/vecadd" --footprint 3M --quiet >/dev/null ||
		{ echo "FAIL: --gmmu $m did not run"; exit 1; }
done
"$build/bin/uvmemu" run --summary off --clock model --dilation 1 --backend copy \
	--migrate pin-host --gmmu count --report "$dir/copy.json" \
	-- "$build/bin/vecadd" --footprint 3M --quiet >/dev/null ||
	{ echo "FAIL: the copy backend did not run"; exit 1; }
# A top-level field, or one inside the object named by $3.
v() {
	if [ $# -eq 3 ]; then
		sed -n "/^  \"$3\": {/,/^  }/p" "$dir/$1.json" |
			sed -nE "s/^    \"$2\": \"?([^\",]*)\"?,?$/\1/p"
	else
		sed -nE "s/^  \"$2\": \"?([^\",]*)\"?,?$/\1/p" "$dir/$1.json"
	fi
}
fails=0
check() { # what, got, want
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: $2, expected $3"; fails=$((fails + 1))
	fi
}
bytes=$((2 << 20)) lines=$((2 << 20 >> 7))
for m in count measure copy; do
	check "$m: verify" "$(v $m verify)" pass
done
check "count: remote_bytes" "$(v count remote_bytes)" $bytes
check "count: remote_xacts" "$(v count remote_xacts)" $lines
check "count: remote bytes booked on the link" "$(v count remote_bytes gpu)" $bytes
check "count: source" "$(v count remote_bytes_source)" "gmmu accessors: 32-byte sectors per warp"
check "copy: remote_bytes" "$(v copy remote_bytes)" $bytes
check "copy: remote_xacts" "$(v copy remote_xacts)" $lines
check "copy: remote bytes booked on the link" "$(v copy remote_bytes gpu)" $bytes
check "copy: transfers booked on the link" "$(v copy bytes_h2d gpu)" 0
check "measure: exact bytes" "$(v measure bytes remote_exact)" $bytes
check "measure: exact transactions" "$(v measure xacts remote_exact)" $lines
check "measure: source" "$(v measure remote_bytes_source)" \
	"estimate: --remote-sample-bytes per sampled access"
est=$(v measure remote_bytes)
[ -n "$est" ] && [ "$est" -gt 0 ] && [ "$est" != $bytes ] ||
	{ echo "FAIL: measure: the charge ($est) is not the sampling estimate"; fails=$((fails + 1)); }
echo "count: $(v count remote_bytes) bytes in $(v count remote_xacts) transactions;" \
	"measure: estimate $est, error $(v measure bytes_error remote_exact)"
exit $((fails > 0))
