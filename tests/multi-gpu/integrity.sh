#!/usr/bin/env bash
# Description: tests/multi-gpu/integrity.c under `uvmemu run` with N GPUs at
# 1.5x oversubscription on each (12 MiB of data, 8 MiB per device; at 4 KB
# pages 6 and 4), with --check 1 (the residency invariants and the views'
# page tables after every batch); every word is checked by the program, and
# the report must show GPU-GPU migrations and evictions.
# usage: integrity.sh BUILD_DIR SOURCE_DIR GPUS BACKEND CLOCK PAGE_SIZE [SCHEDULE]
#   SCHEDULE: host (default) or model (the workers in turns; model clock)
set -u
build=$1 gpus=$3 backend=$4 clock=$5 page=$6 schedule=()
[ "${7:-host}" = model ] && schedule=(--schedule model)
report=$(mktemp)
trap 'rm -f "$report"' EXIT
# At 4 KB, half the data at the same ratio: 16 times the pages, and --check
# walks every one after every batch. Twice these (24 MiB, 16 per device)
# took twice the CI time.
data=12 mem=8M
[ "$page" = 4k ] && data=6 mem=4M
"$build/bin/uvmemu" run --gpus "$gpus" --backend "$backend" --clock "$clock" \
	--page-size "$page" "${schedule[@]}" --device-mem "$mem" --check 1 --report "$report" --summary off -- \
	"$build/bin/multi-gpu-integrity" "$data"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exited with $rc"; exit 1; }
. "$(dirname "$0")/../report_num.sh"
grep -q '"verify": "pass"' "$report" || { echo "FAIL: the report does not say verify pass"; exit 1; }
p2p=$(num bytes_p2p "$report")
evicted=$(num blocks_evicted "$report")
echo "bytes_p2p $p2p, blocks_evicted $evicted"
[ "${p2p:-0}" -gt 0 ] || { echo "FAIL: no GPU-GPU migration"; exit 1; }
[ "${evicted:-0}" -gt 0 ] || { echo "FAIL: nothing evicted at 1.5x"; exit 1; }
echo PASS
