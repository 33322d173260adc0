#!/usr/bin/env bash
# Description: bench/gpu/validate on a machine without a GPU runs the
# emulator's half: every configuration of each program verifies under the
# emulator, the table (table.md) has a row per program and configuration
# with the emulator's time and ratio and the GPU's columns marked absent,
# the GPU line says why, results.tsv and reports.jsonl hold every run, and
# the exit status is 0; --table-only makes the same table from the results.
# A bad option is one line on stderr and exit status 2. Skipped where a GPU
# answers (the script would run the GPU half).
# Usage: gpu_validate.sh BUILD SRC
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
validate=$src/bench/gpu/validate
fails=0
# shellcheck source=../expect_error.sh
. "$src/tests/expect_error.sh"

expect 2 "unknown option '--bogus'" "$validate" --bogus
expect 2 "--programs 'gemm': accepted vecadd, stream" "$validate" --programs vecadd,gemm
expect 2 "--modes 'copy': accepted explicit, managed, prefetch, advise" "$validate" --modes copy
expect 2 "--size '0M'" "$validate" --size 0M
expect 2 "--timeout 'x'" "$validate" --timeout x
expect 2 "--gpu-preset 'h300': accepted .*h200" "$validate" --gpu-preset h300
expect 2 "--link 'pcie9': accepted .*pcie5" "$validate" --link pcie9
expect 2 "exclude each other" "$validate" --gpu-only --emulator-only
expect 2 "--merge '/nonexistent': no results.tsv" "$validate" --merge /nonexistent

if [ -x "$build/bin/cuda/gpu-info" ] && "$build/bin/cuda/gpu-info" >/dev/null 2>&1; then
	echo "SKIP: this machine has a GPU: the script would run its half"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
programs=vecadd,bfs
if ! OUT= "$validate" --build "$build" --out "$dir/out" --programs $programs --size 4M \
	>"$dir/log" 2>&1; then
	echo "FAIL: exit status not 0:"; cat "$dir/log"; exit 1
fi
table=$dir/out/table.md
grep -q '^- GPU: absent: ' "$table" || { echo "FAIL: the GPU line does not say absent:"; head -5 "$table"; fails=$((fails + 1)); }
for p in vecadd bfs; do
	for m in '(a) explicit' '(b) managed' '(c) prefetch' '(d) advise'; do
		row=$(grep -F "| $p | $m |" "$table" | head -1)
		# GPU roi absent, then a kernel time, a ratio; the emulator's time a number.
		if ! [[ $row =~ ^\|\ $p\ \|\ [^|]*\|\ absent\ \|\ -\ \|\ -\ \|\ [0-9]+\.[0-9]\ \|\ [0-9]+\.[0-9]{2}\ \| ]]; then
			echo "FAIL: the time row of $p $m: '$row'"; fails=$((fails + 1))
		fi
	done
	[ "$(grep -c "^emu	$p	[a-z]*	pass	pass	" "$dir/out/results.tsv")" = 4 ] ||
		{ echo "FAIL: results.tsv lacks 4 passing emulator rows of $p"; fails=$((fails + 1)); }
done
grep -q '^| (b)/(a) managed | - | [0-9.]* | 0, 2 |' "$table" ||
	{ echo "FAIL: no geometric mean of (b)/(a) over 2 programs"; grep '(b)/(a)' "$table"; fails=$((fails + 1)); }
[ "$(grep -c '"side": "emu"' "$dir/out/reports.jsonl")" = 8 ] ||
	{ echo "FAIL: reports.jsonl does not hold the 8 emulated runs"; fails=$((fails + 1)); }
cp "$table" "$dir/first.md"
OUT= "$validate" --build "$build" --out "$dir/out" --programs $programs --table-only >/dev/null 2>&1 ||
	{ echo "FAIL: --table-only exited non-zero"; fails=$((fails + 1)); }
diff "$dir/first.md" "$table" >/dev/null ||
	{ echo "FAIL: --table-only made another table"; diff "$dir/first.md" "$table"; fails=$((fails + 1)); }
[ $fails = 0 ] || exit 1
echo "ok: the emulator's half and the table without a GPU"
