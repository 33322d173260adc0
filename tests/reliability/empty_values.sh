#!/usr/bin/env bash
# Description: an empty duration or bandwidth is refused like an empty size,
# count or dilation: one line naming the option and the accepted form, status
# 2, from an option, a variable (natively and emulated) and a config file.
# Issue 35, defect 5: --fault-latency=, --uvmmu-latency= and
# UVMEMU_FAULT_LATENCY= ran with "fault latency -0.0 us".
set -u
build=$1
probe=$build/tests/bin/probe
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

duration="expected a duration with unit ns, us, ms or s"
bandwidth="expected bytes per second"

for opt in fault-latency uvmmu-latency link-latency thrashing-lapse; do
	expect 2 "^uvmemu run: --$opt='': $duration" run --$opt=
done
expect 2 "^uvmemu run: --link-bw='': $bandwidth" run --link-bw=
expect 2 "^uvmemu run: --link-bw='': $bandwidth" run --link-bw ""
expect 2 "^uvmemu: UVMEMU_FAULT_LATENCY='': $duration" \
	env UVMEMU_FAULT_LATENCY= UVMEMU_SUMMARY=off "$probe" --footprint 4
expect 2 "^uvmemu: UVMEMU_FAULT_LATENCY='': $duration" env UVMEMU_FAULT_LATENCY= \
	UVMEMU_SUMMARY=off LD_PRELOAD="$build/lib/libuvmemu.so" "$probe" --footprint 4
printf 'fault-latency =\n' >"$dir/c"
expect 2 "^uvmemu run: $dir/c:1: fault-latency='': $duration" run --config "$dir/c"
[ $fails -eq 0 ]
