#!/usr/bin/env bash
# demo.sh - build uvmemu and run a small oversubscribed workload under
# emulation: HPCC RandomAccess on 64 MiB of managed memory with device memory
# for two thirds of it, printing the run's report.
set -eu
cd "$(dirname "$0")/.."
. scripts/deps.sh
uvmemu_deps
uvmemu_configure_main >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
# --dilation auto: the GPU's time at the calibrated speed of this machine's
# executor, with kernel work counted in basic blocks (README, "The time model").
echo "== uvmemu run --oversub 1.5 --dilation auto -- build/bin/ra --footprint 64M --updates 200000"
build/bin/uvmemu run --oversub 1.5 --dilation auto --report build/demo-report.json -- build/bin/ra --footprint 64M --updates 200000
echo "== JSON report: build/demo-report.json"
