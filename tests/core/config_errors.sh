#!/usr/bin/env bash
# Description: every configuration error is one line on stderr that names the
# setting and the accepted values, with a non-zero exit, never a crash: unknown
# variables and options, malformed sizes, bad enum values, a device memory
# below one vablock, conflicting settings, an oversubscription that leaves less
# than a vablock, absent NUMA nodes, userfaultfd unavailable, a missing program,
# a page size other than 4k and 64k, or one the preloaded library is not
# built for, a GPU count outside 1..8, peer eviction with one GPU, UVMMU's
# one-GPU path with several, a per-device list whose length is not --gpus or
# with a bad element, a compute measure the clock, the dilation or the build
# cannot give.
set -u
build=$1
bin=$build/bin
probe=$build/tests/bin/probe
deny=$build/tests/bin/deny-userfaultfd
# shellcheck source=../expect_error.sh
. "$(dirname "$0")/../expect_error.sh"

run() { "$bin/uvmemu" run --summary off "$@"; }

expect 2 "unknown variable UVMEMU_FOO; known variables: UVMEMU_DEVICE_MEM" env UVMEMU_FOO=1 "$bin/uvmemu" run -- "$probe"
expect 2 "unknown variable UVMEMU_FOO" env UVMEMU_FOO=1 LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "UVMEMU_DEVICE_MEM='12Q': expected a size" env UVMEMU_DEVICE_MEM=12Q LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "--device-mem='1M': device memory must be at least one 2 MB vablock" run --device-mem 1M -- "$probe"
expect 2 "--device-mem='-5M': expected a size" run --device-mem=-5M -- "$probe"
expect 2 "given twice: choose --device-mem" run --device-mem 64M --oversub 1.5 -- "$probe"
expect 2 "--link='pcie9': accepted values are pcie3\|pcie4\|pcie5\|nvlink2\|nvlink3\|nvlink4\|pcie3-uvmsmart\|unlimited" run --link pcie9 -- "$probe"
expect 2 "--evict='lru9': accepted values are lru2m" run --evict lru9 -- "$probe"
expect 2 "unknown option '--bogus'" run --bogus 1 -- "$probe"
expect 2 "--batch='0': must be between 1 and 4096" run --batch 0 -- "$probe"
expect 2 "--fault-latency='45xs': expected a duration" run --fault-latency 45xs -- "$probe"
expect 2 "--host-fill='96K': must be a power of two" run --host-fill 96K -- "$probe"
expect 2 "--dilation='0.5': must be between 1 and" run --dilation 0.5 -- "$probe"
expect 2 "--prefetch tree \\(UVMEMU_PREFETCH\\) cannot go with --fault-path uvmmu: .* use --prefetch none" run --fault-path uvmmu --prefetch tree -- "$probe"
expect 2 "--prefetch seq64k \\(UVMEMU_PREFETCH\\) cannot go with --fault-path uvmmu" run --policy uvmmu --prefetch seq64k -- "$probe"
expect 2 "--fault-path='gmmu': accepted values are driver\\|uvmmu" run --fault-path gmmu -- "$probe"
expect 2 "--cpu-prefetch='tree2': accepted values are same\\|none\\|.*tree" run --cpu-prefetch tree2 -- "$probe"
expect 2 "--evict='nru2': accepted values are .*\\|nru\\|.*\\|seq-local\\|" run --evict nru2 -- "$probe"
expect 2 "--policy='etc2': accepted values are .*\\|etc\\|" run --policy etc2 -- "$probe"
expect 2 "--proactive-evict='2Q': expected a size" run --proactive-evict 2Q -- "$probe"
expect 2 "--proactive-evict \\(UVMEMU_PROACTIVE_EVICT\\) cannot go with --fault-path uvmmu" run --policy uvmmu --proactive-evict 64K -- "$probe"
expect 2 "--proactive-evict \\(UVMEMU_PROACTIVE_EVICT\\) cannot go with --fault-path uvmmu" run --policy etc --fault-path uvmmu --prefetch none -- "$probe"
expect 2 "--clock='wall': accepted values are model\\|real" run --clock wall -- "$probe"
expect 2 "--page-size='8k': accepted values are 4k\\|64k" run --page-size 8k -- "$probe"
expect 2 "^uvmemu: --page-size 4k \\(UVMEMU_PAGE_SIZE\\): this library is built for 64k only; page sizes are 4k and 64k" env UVMEMU_PAGE_SIZE=4k LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "^uvmemu: --page-size 64k \\(UVMEMU_PAGE_SIZE\\): this library is built for 4k only; page sizes are 4k and 64k" env UVMEMU_PAGE_SIZE=64k LD_PRELOAD="$build/lib/libuvmemu_4k.so" "$probe"
for opt in "fetch-window 10us" "fault-gap 1us" "vablock-cost 2us"; do
	expect 2 "^uvmemu run: --${opt% *} \\(UVMEMU_$(tr a-z- A-Z_ <<<"${opt% *}")\\) cannot go with --fault-path uvmmu: UVMMU's hardware has no fault buffer" run --policy uvmmu --$opt -- "$probe"
done
expect 2 "--fault-path uvmmu cannot go with --page-size 4k \\(UVMEMU_PAGE_SIZE\\): UVMMU's hardware migrates 64 KB page-groups" run --policy uvmmu --page-size 4k -- "$probe"
expect 2 "UVMEMU_CLOCK='gpu': accepted values are model\\|real" env UVMEMU_CLOCK=gpu LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "--cpu-fault-latency \\(UVMEMU_CPU_FAULT_LATENCY\\) is read only under --clock model" run --clock real --cpu-fault-latency 5us -- "$probe"
expect 2 "--compute='gpu': accepted values are auto\\|cpu\\|blocks" run --compute gpu -- "$probe"
expect 2 "--compute \\(UVMEMU_COMPUTE\\) is read only under --clock model" run --clock real --compute cpu -- "$probe"
expect 2 "--compute blocks \\(UVMEMU_COMPUTE\\) needs --dilation auto" run --compute blocks --dilation 4 -- "$probe"
expect 2 "--late-hits='miss': accepted values are fault\\|hit" run --late-hits miss -- "$probe"
expect 2 "--late-hits \\(UVMEMU_LATE_HITS\\) is read only under --clock model" run --clock real --late-hits hit -- "$probe"
expect 2 "--schedule='turns': accepted values are auto\\|host\\|model" run --schedule turns -- "$probe"
expect 2 "--schedule \\(UVMEMU_SCHEDULE\\) is read only under --clock model" run --clock real --schedule model -- "$probe"
expect 2 "--launch-cost \\(UVMEMU_LAUNCH_COST\\) is read only under --clock model" run --clock real --launch-cost 10us -- "$probe"
expect 2 "--fetch-window \\(UVMEMU_FETCH_WINDOW\\) is read only under --clock model" run --clock real --fetch-window 10us -- "$probe"
expect 2 "--fault-gap \\(UVMEMU_FAULT_GAP\\) is read only under --clock model" run --clock real --fault-gap 1us -- "$probe"
expect 2 "--vablock-cost \\(UVMEMU_VABLOCK_COST\\) is read only under --clock model" run --clock real --vablock-cost 2us -- "$probe"
# Blocks asked for where the program does not count them: refused before the
# first kernel (a build with -DEMUGPU_COUNT_BLOCKS=ON counts them).
if ! nm -D "$bin/vecadd" 2>/dev/null | grep -q __sanitizer_cov_trace_pc; then
	expect 2 "^uvmemu: --compute blocks \\(UVMEMU_COMPUTE\\): no price for a basic block" run --compute blocks --dilation auto --calibration none -- "$bin/vecadd" --footprint 1M --quiet
fi
expect 2 "--gpus='0': must be between 1 and 8" run --gpus 0 -- "$probe"
expect 2 "--gpus='-1': expected a whole number between 1 and 8" run --gpus -1 -- "$probe"
expect 2 "--gpus='abc': expected a whole number between 1 and 8" run --gpus abc -- "$probe"
expect 2 "UVMEMU_GPUS='9': must be between 1 and 8" env UVMEMU_GPUS=9 LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "UVMEMU_GPUS='abc': expected a whole number between 1 and 8" env UVMEMU_GPUS=abc "$probe"
expect 2 "UVMEMU_GPUS='0': must be between 1 and 8" env UVMEMU_GPUS=0 "$bin/uvmemu" run -- "$probe"
expect 2 "--peer-link='garbage': accepted values are pcie3\|pcie4\|pcie5\|nvlink2\|nvlink3\|nvlink4\|pcie3-uvmsmart\|unlimited" run --peer-link garbage -- "$probe"
expect 2 "--evict-to='disk': accepted values are host\|peer" run --evict-to disk -- "$probe"
expect 2 "^uvmemu run: --evict-to peer \(UVMEMU_EVICT_TO\) needs --gpus 2 or more \(UVMEMU_GPUS, 1..8; here 1\)" run --evict-to peer -- "$probe"
expect 2 "--evict-to peer \(UVMEMU_EVICT_TO\) needs --gpus 2 or more" env UVMEMU_EVICT_TO=peer LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "--fault-path uvmmu cannot go with --gpus 2 \(UVMEMU_GPUS\): UVMMU's hardware path models one GPU" run --policy uvmmu --gpus 2 -- "$probe"
# Per-device lists: as long as --gpus, each element a valid value.
expect 2 "^uvmemu run: --gpu gtx1080ti,v100,a100 \(UVMEMU_GPU\) lists 3 values for --gpus 2: give one value for every device, or one per device \(2, comma-separated\)" run --gpus 2 --gpu gtx1080ti,v100,a100 -- "$probe"
expect 2 "--gpu v100,h100 \(UVMEMU_GPU\) lists 2 values for --gpus 1" env UVMEMU_GPU=v100,h100 LD_PRELOAD="$build/lib/libuvmemu.so" "$probe"
expect 2 "--gpu \(device 1\)='v200': accepted values are gtx1080ti\|v100\|a100\|h100\|h200" run --gpus 2 --gpu gtx1080ti,v200 -- "$probe"
expect 2 "--sms \(device 1\)='x': expected a whole number between 0 and 1024" run --gpus 3 --sms 2,x,3 -- "$probe"
expect 2 "--sms \(device 2\)='': expected a whole number between 0 and 1024" run --gpus 3 --sms 2,3, -- "$probe"
expect 2 "--device-mem \(device 1\)='1M': device memory must be at least one 2 MB vablock" run --gpus 2 --device-mem 64M,1M -- "$probe"
expect 2 "--oversub \(device 0\)='abc': expected a number" run --gpus 2 --oversub abc,1.5 -- "$probe"
expect 2 "--oversub 2,1,1 \(UVMEMU_OVERSUB\) lists 3 values for --gpus 2" run --gpus 2 --oversub 2,1,1 -- "$probe"
expect 2 "given twice: choose --device-mem" run --gpus 2 --device-mem 64M,0 --oversub 0,1.5 -- "$probe"
expect 2 "option '--oversub' needs a value" run --oversub
expect 2 "no program given" run --oversub 1.5
expect 127 "cannot run '/nonexistent/prog': No such file or directory" run -- /nonexistent/prog
expect 2 "unknown command 'frobnicate'" "$bin/uvmemu" frobnicate
expect 2 "--oversub 8 of a 2.00 MiB managed footprint .* gives 256.00 KiB, less than one 2 MB vablock" run --oversub 8 -- "$probe" --footprint 2
expect 2 "--oversub 2 of a 8.00 MiB managed footprint .* gives 4.00 MiB \\(of which cudaMalloc holds 4.00 MiB\\), less than one 2 MB vablock of device memory beside cudaMalloc's; .* or --oversub-pinned out" run --oversub 2 -- "$probe" --footprint 8 --pinned 4
expect 2 "--oversub-pinned='over': accepted values are in\\|out" run --oversub 2 --oversub-pinned over -- "$probe"
expect 2 "--device-node 7: no such NUMA node; this machine has node" run --device-node 7 -- "$probe"
expect 2 "--host-node 4095: no such NUMA node" run --host-node 4095 -- "$probe"

# A cudaMalloc that would leave managed data less than a vablock fails as
# CUDA's out of memory, not as an internal error of the driver later.
out=$(run --device-mem 4M -- "$probe" --footprint 8 --pinned 3 2>&1); rc=$?
if [ $rc -ne 1 ] || ! grep -q "probe: cudaMalloc failed" <<<"$out" || grep -q "internal error" <<<"$out"; then
	echo "FAIL: --device-mem 4M, cudaMalloc 3M: exit $rc"; echo "$out"; fails=$((fails + 1))
else
	echo "ok: --device-mem 4M, cudaMalloc 3M: refused: $(head -1 <<<"$out")"
fi

# --oversub-pinned out sizes the managed share alone: cudaMalloc's 4 MiB
# come on top of footprint / ratio, and the run verifies.
out=$(run --summary on --oversub 2 --oversub-pinned out -- "$probe" --footprint 8 --pinned 4 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -q "gives 8.00 MiB (cudaMalloc's 4.00 MiB on top)" <<<"$out" || ! grep -q "verify pass" <<<"$out"; then
	echo "FAIL: --oversub-pinned out: exit $rc"; echo "$out"; fails=$((fails + 1))
else
	echo "ok: --oversub-pinned out: $(grep 'device ' <<<"$out")"
fi

# Node 0 exists everywhere; on a single-node machine the report says so.
out=$(run --summary on --device-node 0 --host-node 0 -- "$probe" 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -q "device memory node 0, host memory node 0" <<<"$out"; then
	echo "FAIL: --device-node 0 --host-node 0: exit $rc"; echo "$out"; fails=$((fails + 1))
else
	echo "ok: node 0 accepted: $(grep 'system' <<<"$out")"
fi

# Several GPUs, and peer eviction among them, are accepted.
if ! out=$(run --gpus 4 --peer-link nvlink4 --evict-to peer -- "$probe" 2>&1); then
	echo "FAIL: --gpus 4 --peer-link nvlink4 --evict-to peer refused:"; echo "$out"; fails=$((fails + 1))
else
	echo "ok: --gpus 4 --peer-link nvlink4 --evict-to peer accepted"
fi
# A list per device, or one value for all, is accepted.
if ! out=$(run --gpus 2 --gpu gtx1080ti,v100 --sms 0,40 --device-mem 64M,128M -- "$probe" 2>&1); then
	echo "FAIL: per-device lists refused:"; echo "$out"; fails=$((fails + 1))
else
	echo "ok: --gpus 2 --gpu gtx1080ti,v100 --sms 0,40 --device-mem 64M,128M accepted"
fi

# userfaultfd unavailable (seccomp ENOSYS, and /dev/userfaultfd refused).
err=$("$deny" env LD_PRELOAD="$build/lib/libuvmemu.so" "$probe" 2>&1 >/dev/null); rc=$?
if [ $rc -eq 0 ]; then
	echo "SKIP part: this user can open /dev/userfaultfd, so it cannot be made unavailable"
elif [ $rc -ne 2 ] || ! grep -Eq "^uvmemu: userfaultfd unavailable: userfaultfd\(2\): .*seccomp.*; /dev/userfaultfd: Permission denied" <<<"$err" ||
	[ "$(grep -c . <<<"$err")" -ne 1 ]; then
	echo "FAIL: userfaultfd unavailable -> exit $rc:"; echo "$err"; fails=$((fails + 1))
else
	echo "ok: userfaultfd unavailable -> $rc: $err"
fi

[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "all configuration errors reported"
