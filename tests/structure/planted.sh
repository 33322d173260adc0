#!/usr/bin/env bash
# planted.sh BUILD SRC - the include check catches what it must: in a copy
# of the sources, each planted include across a wall makes
# check_includes.sh fail and name the file; the clean copy passes.
set -eu
src=$2
check=$src/tests/structure/check_includes.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/libuvmemu"
	cp -r "$src/libuvmemu/src" "$src/libuvmemu/include" "$src/libuvmemu/tools" "$tmp/tree/libuvmemu/"
	cp -r "$src/bench" "$src/emu-gpu" "$src/workloads" "$tmp/tree/"
}

copy
"$check" "$tmp/tree" >/dev/null || {
	echo "FAIL: the unchanged copy does not pass"
	"$check" "$tmp/tree"
	exit 1
}

# plant FILE HEADER WHY: one include across a wall, which must be named;
# the file is put back afterwards, so each plant is checked alone.
plant() {
	local file=$1 header=$2 why=$3 out
	cp "$src/$file" "$tmp/tree/$file"
	sed -i "0,/^#include/s//#include \"$header\"\n&/" "$tmp/tree/$file"
	if out=$("$check" "$tmp/tree" 2>&1); then
		echo "FAIL: $why ($file including $header) passed the check"
		exit 1
	fi
	if ! grep -q "^$file: includes \"$header\"" <<<"$out"; then
		echo "FAIL: $why: the check failed without naming $file:"
		echo "$out"
		exit 1
	fi
	echo "ok: $why: $(grep "^$file:" <<<"$out")"
	cp "$src/$file" "$tmp/tree/$file"
}

plant libuvmemu/src/mm/arena.c driver_int.h "mm reaching into the driver's private state"
plant libuvmemu/src/common/units.c session.h "common including upward"
plant libuvmemu/src/driver/ops.c trace.h "the driver calling observation"
plant libuvmemu/src/obs/reuse.c emu_int.h "observation reaching into the emulator"
plant libuvmemu/src/emu/info.c testing.h "a test-only header in the library"
plant bench/floor/floor.c uffd.h "a benchmark past uvmemu_bench.h"
plant emu-gpu/src/gpu.c config.h "the executor on libuvmemu's insides"
echo "every planted include was caught"
