#!/usr/bin/env bash
# Description: --compute blocks measures a kernel's compute by the basic blocks
# of kernel code it ran, priced at the calibration's block_ns: the modelled
# compute is the same in every run, quiet or beside busy processes, and the
# report names the measure. Under --compute cpu (and in a program that does
# not count) the report says cpu. vecadd-counted is vecadd compiled to count
# (-fsanitize-coverage=trace-pc), as a -DEMUGPU_COUNT_BLOCKS=ON build
# compiles every program. "The same" is within 0.1%: a warp that faulted
# runs the few blocks of its call into the runtime, and how many warps
# fault first on a block depends on the workers' real interleaving.
set -u
build=$1
dir=$(mktemp -d)
busy=()
trap 'kill "${busy[@]}" 2>/dev/null; rm -rf "$dir"' EXIT
fails=0
uvmemu=$build/bin/uvmemu
prog=$build/tests/bin/vecadd-counted

# A calibration for this machine and build, with a block's price: the
# build's own figure where it counts blocks, else 3 ns written beside it.
if ! "$uvmemu" calibrate --runs 1 --out "$dir/cal" >"$dir/cal.out"; then
	echo "FAIL: uvmemu calibrate failed"; cat "$dir/cal.out"; exit 1
fi
grep -q '^block_ns' "$dir/cal" || echo "block_ns = 3" >>"$dir/cal"
block_ns=$(sed -nE 's/^block_ns = (.*)$/\1/p' "$dir/cal")

run() { # REPORT [OPTIONS...]
	local r=$1
	shift
	"$uvmemu" run --summary off --clock model --dilation auto --calibration "$dir/cal" \
		--oversub 1.25 --report "$r" "$@" -- "$prog" --footprint 8M --quiet >/dev/null
}
for i in 1 2; do
	run "$dir/quiet$i.json" --compute blocks || { echo "FAIL: run $i failed"; exit 1; }
done
for _ in 1 2; do
	(while :; do :; done) &
	busy+=($!)
done
run "$dir/busy.json" --compute blocks || { echo "FAIL: the run beside busy loops failed"; exit 1; }
kill "${busy[@]}" 2>/dev/null
busy=()

c1=$(jq -r '.gpu.compute_s' "$dir/quiet1.json")
c2=$(jq -r '.gpu.compute_s' "$dir/quiet2.json")
cb=$(jq -r '.gpu.compute_s' "$dir/busy.json")
echo "compute_s: quiet $c1, $c2; beside two busy loops $cb (block_ns $block_ns)"
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a / 1000) }'; }
if same "$c1" "$c2" && same "$c1" "$cb"; then
	echo "ok: the same compute in every run"
else
	echo "FAIL: compute_s differs between runs, or is 0"; fails=$((fails + 1))
fi
# In turns (--schedule auto, where compute is counted) the whole region of
# interest repeats exactly, host code included: the saved calibration
# prices the host's blocks from the program's start, not from its first
# kernel, so the part of the region before that kernel is counted too.
g=$(jq -r '.gpu_s' "$dir/quiet1.json" "$dir/quiet2.json" "$dir/busy.json" | sort -u)
if [ "$(printf '%s\n' "$g" | wc -l)" -eq 1 ] && [ "$g" != 0 ] && [ "$g" != null ]; then
	echo "ok: the same gpu_s in every run ($g s)"
else
	echo "FAIL: gpu_s differs between runs: $(echo $g)"; fails=$((fails + 1))
fi
if jq -e --argjson b "$block_ns" '.model.compute == "blocks" and .model.block_ns == $b and .verify == "pass"' \
	"$dir/quiet1.json" >/dev/null; then
	echo "ok: the report names the measure and the price"
else
	echo "FAIL: model.compute/block_ns/verify: $(jq -c '[.model.compute, .model.block_ns, .verify]' "$dir/quiet1.json")"
	fails=$((fails + 1))
fi

# CPU time on request; and auto picks blocks where the calibration prices them.
run "$dir/cpu.json" --compute cpu || { echo "FAIL: the --compute cpu run failed"; exit 1; }
run "$dir/auto.json" || { echo "FAIL: the default run failed"; exit 1; }
got=$(jq -r '.model.compute' "$dir/cpu.json")/$(jq -r '.model.compute' "$dir/auto.json")
if [ "$got" = "cpu/blocks" ]; then
	echo "ok: --compute cpu measures CPU time, auto counts blocks"
else
	echo "FAIL: cpu/auto measured $got, want cpu/blocks"; fails=$((fails + 1))
fi
# The summary's note on CPU-time compute names the way to counted compute:
# in a build that counts (its executor says so), --dilation auto.
note=$("$uvmemu" run --clock model --compute cpu --dilation auto --calibration "$dir/cal" \
	-- "$build/bin/vecadd" --footprint 1M --quiet 2>&1 >/dev/null | grep '^  note    compute is CPU time')
want="in a build with -DEMUGPU_COUNT_BLOCKS=ON"
grep -q '^EMUGPU_COUNT_BLOCKS:BOOL=ON$' "$build/CMakeCache.txt" &&
	want="this program counts its basic blocks, and --dilation auto prices them"
if grep -qF "$want" <<<"$note"; then
	echo "ok: the note on CPU time says: $want"
else
	echo "FAIL: the note on CPU time does not say '$want': $note"; fails=$((fails + 1))
fi
[ "$fails" -eq 0 ]
