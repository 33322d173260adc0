#!/usr/bin/env bash
# Description: CTAs that stall on far faults make room for spare CTA slots at
# once, not when they finish. ra with 128 one-thread CTAs of 8192 random
# updates each faults all through every CTA; fitting in device memory, its GPU
# faults must gather into batches (at most one GPU batch per two GPU faults,
# counting every CPU fault as a batch of its own). Before the driver told the
# executor of stalls, the kernel ran on its main workers alone until a CTA
# finished: about one GPU fault per batch. The far-fault latency is 1 ms (45 us
# at D = 22): the real-time driver wakes on time, and faults gather only when
# other CTAs reach theirs within a batch's modelled wait, which 45 us on a
# 2-core machine rarely allows (0.18-0.53 GPU batches per GPU fault at 45 us,
# 0.05-0.23 at 1 ms, on the project's VM).
# usage: stalled.sh BUILD_DIR
set -u
build=$1
. "$(dirname "$0")/../reliability/lib.sh" # field
[ -x "$build/bin/ra" ] || { echo "FAIL: $build/bin/ra not built"; exit 1; }
report=$(mktemp)
trap 'rm -f "$report"' EXIT
"$build/bin/uvmemu" run --oversub 0.5 --fault-latency 1ms --summary off --report "$report" -- \
	"$build/bin/ra" --footprint 16M --updates 1048576 --quiet || { echo "FAIL: ra exited non-zero"; exit 1; }
[ "$(field "$report" verify)" = pass ] || { echo "FAIL: ra did not verify"; exit 1; }
gpu=$(field "$report" gpu_faults) cpu=$(field "$report" cpu_faults) batches=$(field "$report" batches)
echo "GPU faults $gpu, CPU faults $cpu, batches $batches"
[ "$gpu" -gt 0 ] || { echo "FAIL: no GPU faults"; exit 1; }
if [ $((batches - cpu)) -gt $((gpu / 2)) ]; then
	echo "FAIL: $((batches - cpu)) batches or more for $gpu GPU faults: stalled CTAs did not let spares run"
	exit 1
fi
