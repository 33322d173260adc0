#!/usr/bin/env bash
# Description: every dual-source workload (and the dialect test) was built by
# nvcc for a real GPU: build/bin/cuda/NAME exists, holds sm_90 GPU code, runs
# on the driver alone (the CUDA runtime linked in, CUPTI loaded at run time),
# and, run without a GPU, ends with one line naming the CUDA error, exit 1,
# not a crash; with a GPU it verifies at its small test size. Skipped, with
# the configure step's reason, where the build has no CUDA builds.
# usage: builds.sh BUILD_DIR SOURCE_DIR ENABLED REASON NAME...
set -u
build=$1 src=$2 enabled=$3 reason=$4
shift 4
if [ "$enabled" != ON ]; then
	echo "SKIP: no CUDA builds: $reason"
	exit 77
fi
rc=0
gpu=0
"$build/bin/cuda/gpu-info" >/dev/null 2>&1 && gpu=1
for name in "$@" emugpu-dialect; do
	bin=$build/bin/cuda/$name
	if [ ! -x "$bin" ]; then
		echo "FAIL: $bin was not built"; rc=1; continue
	fi
	if ldd "$bin" | grep -Eq 'libcudart|libcupti|libcuda\.so'; then
		echo "FAIL: $bin links a CUDA library dynamically:"; ldd "$bin"; rc=1
	fi
	if ! objdump -h "$bin" | grep -q '\.nv_fatbin' || ! strings -a "$bin" | grep -q 'sm_90'; then
		echo "FAIL: $bin holds no sm_90 GPU code"; rc=1
	fi
	args=
	[ "$name" = emugpu-dialect ] || args="$(cat "$src/workloads/$name/test-args") --quiet"
	out=$(UVMEMU_SUMMARY=off timeout 120 "$bin" $args 2>&1)
	st=$?
	if [ $gpu = 1 ]; then
		if [ $st -ne 0 ]; then
			echo "FAIL: $name on the GPU: exit $st"; echo "$out"; rc=1
		fi
	elif [ $st -ne 1 ] || [ "$(grep -c . <<<"$out")" -gt 2 ] || ! grep -qi 'cuda\|driver\|device' <<<"$out"; then
		echo "FAIL: $name without a GPU: exit $st, expected 1 and a line naming the error:"
		echo "$out"; rc=1
	fi
	echo "$name: built; $([ $gpu = 1 ] && echo "ran on the GPU" || echo "without a GPU: $(head -1 <<<"$out")")"
done
exit $rc
