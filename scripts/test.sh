#!/usr/bin/env bash
# test.sh - build uvmemu with warnings as errors and run every test.
set -eu
cd "$(dirname "$0")/.."
. scripts/deps.sh
uvmemu_deps
uvmemu_configure_main -DUVMEMU_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
cd build && ctest --output-on-failure -j"$(nproc)" --timeout 600
