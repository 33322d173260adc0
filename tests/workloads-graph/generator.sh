#!/usr/bin/env bash
# Description: the graphgen-style generator is deterministic for a seed,
# changes with the seed, and has graphgen's average degree: 261,444 nodes give
# about 1,568,664 arcs (graphgen's own file of that size has 1,568,420).
# usage: generator.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
n=261444
export UVMEMU_SUMMARY=off

arcs() { # WORKLOAD SEED -> the arc count it logs (and it must verify)
	local out
	out=$("$build/bin/$1" --nodes $n --seed "$2" 2>&1) || { echo "FAIL: $1 --seed $2: $out" >&2; return 1; }
	grep -q "^$1: verify pass" <<<"$out" || { echo "FAIL: $1 --seed $2 did not verify" >&2; return 1; }
	sed -nE "s/^$1: generated graph: $n nodes, ([0-9]+) arcs.*/\1/p" <<<"$out"
}

for wl in bfs sssp; do
	[ -x "$build/bin/$wl" ] || { echo "FAIL: $build/bin/$wl not built"; exit 1; }
	a=$(arcs $wl 7) && b=$(arcs $wl 7) && c=$(arcs $wl 8) || exit 1
	echo "$wl: seed 7 -> $a and $b arcs, seed 8 -> $c arcs"
	[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: seed 7 gave $a then $b arcs"; exit 1; }
	[ "$a" != "$c" ] || { echo "FAIL: seeds 7 and 8 gave the same $a arcs"; exit 1; }
	# Expected 6n = 1,568,664; the standard deviation is about 2 * sqrt(2n/3) = 835.
	[ "$a" -gt 1563664 ] && [ "$a" -lt 1573664 ] ||
		{ echo "FAIL: $a arcs for $n nodes, expected 6n +- 5000"; exit 1; }
done
exit 0
