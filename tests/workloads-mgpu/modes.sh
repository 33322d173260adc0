#!/usr/bin/env bash
# Description: runs a two-GPU workload (mgpu-stream, mgpu-sgemm) at its test
# size in one --mode, with or without --prefetch, natively and under `uvmemu
# run --oversub 1.5 --check 1`; both must verify, and both --output files must
# equal the native --mode peer run's: every mode computes the same result.
# usage: modes.sh BUILD_DIR SOURCE_DIR NAME MODE [_prefetch] [-- UVMEMU_RUN_OPTIONS...]
set -u
build=$1 src=$2 name=$3 mode=$4
shift 4
prefetch=()
if [ "${1:-}" = _prefetch ]; then prefetch=(--prefetch); shift; fi
[ "${1:-}" = -- ] && shift
bin=$build/bin/$name
args=$(cat "$src/workloads/$name/test-args")
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
[ -x "$build/bin/uvmemu" ] || { echo "SKIP: uvmemu not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

"$bin" $args --quiet --output "$tmp/peer" >/dev/null 2>&1 ||
	{ echo "FAIL: the native --mode peer run for comparison failed"; exit 1; }

out=$("$bin" $args --mode "$mode" "${prefetch[@]}" --output "$tmp/native" 2>&1) || rc=1
echo "$out"
grep -q "^$name: verify pass" <<<"$out" || { echo "FAIL: native run: no 'verify pass'"; rc=1; }
grep -q "^$name: mode $mode: " <<<"$out" || { echo "FAIL: no line naming the devices"; rc=1; }
cmp "$tmp/peer" "$tmp/native" || { echo "FAIL: --mode $mode's --output differs from peer's"; rc=1; }

report=$tmp/report.json
out=$("$build/bin/uvmemu" run "$@" --oversub 1.5 --check 1 --report "$report" --summary off -- \
	"$bin" $args --quiet --mode "$mode" "${prefetch[@]}" --output "$tmp/emu" 2>&1) || rc=1
echo "$out"
grep -q '"verify": "pass"' "$report" || { echo "FAIL: report does not say verify pass"; rc=1; }
# Split over two GPUs halves each one's share: it may fit.
if [ "$mode" != split ] || [[ " $* " != *" --gpus 2 "* ]]; then
	grep -Eq '"blocks_evicted": [1-9]' "$report" || { echo "FAIL: nothing was evicted at 1.5x"; rc=1; }
fi
cmp "$tmp/peer" "$tmp/emu" || { echo "FAIL: emulated --output differs from native peer's"; rc=1; }
# Two GPUs: GPU 1 takes GPU 0's data in peer mode, GPU to GPU.
if [ "$mode" = peer ] && [[ " $* " == *" --gpus 2 "* ]]; then
	grep -Eq '"bytes_p2p": [1-9]' "$report" || { echo "FAIL: no GPU-GPU migration under --gpus 2"; rc=1; }
fi
[ $rc -eq 0 ] && echo "ok: $name --mode $mode ${prefetch[*]} natively and emulated"
exit $rc
