#!/usr/bin/env bash
# Description: the traces of an oversubscribed run parse, and their rows add
# up to the run's report: per-batch faults, bytes and blocks each way,
# evictions and the batch count equal the JSON totals; every kernel launch has
# a kernels.csv row; faults.csv has one row per fault message (duplicates
# included; prefetched blocks have rows of their own; the emulator's sampling
# and reuse-probe faults too, counted apart from far faults); accesses.csv
# counts as many accesses as there were GPU far faults and sampled faults.
# Run at the migration unit given (64k or 4k; $3): the block columns are
# 64 KB basic blocks at either, so every access row and fault row lies in
# its allocation's blocks and a fault's block is its page >> 16.
set -u
build=$1
page=${3:-64k}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/bin/uvmemu" run --page-size "$page" --oversub 1.5 --trace "$dir/t" --trace-faults on \
	--summary off --report "$dir/r.json" -- "$build/tests/bin/probe" --footprint 24 >/dev/null || {
	echo "FAIL: the traced run failed"; exit 1; }
grep -q "\"page_size\": \"$page\"" "$dir/r.json" || { echo "FAIL: the report's page_size is not $page"; exit 1; }
json() { sed -nE "s/^  \"$1\": ([0-9]+),?$/\1/p" "$dir/r.json"; }
col() { # sum of a named column of batches.csv
	awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		{ s += $c } END { if (!c) { print "no-column"; exit } printf "%d\n", s }' "$dir/t/batches.csv"
}
fails=0
for k in gpu_faults cpu_faults batches bytes_h2d bytes_d2h blocks_h2d blocks_d2h blocks_evicted \
	duplicate_faults thrashed_blocks blocks_zero_filled; do
	want=$(json "$k") got=$(col "$k")
	if [ -z "$want" ] || [ "$got" != "$want" ]; then
		echo "FAIL: $k: trace sums to '$got', report says '$want'"; fails=$((fails + 1))
	else
		echo "ok: $k = $got"
	fi
done
rows=$(awk -F, 'NR > 1 && $9 != "prefetched"' "$dir/t/faults.csv" | wc -l) # prefetched blocks are rows without a fault
want=$(($(json gpu_faults) + $(json cpu_faults) + $(json remote_samples) + $(json probe_faults) + $(json refreshed_faults)))
[ "$rows" -eq "$want" ] || { echo "FAIL: faults.csv has $rows rows, the report $want faults"; fails=$((fails + 1)); }
kernels=$(($(wc -l <"$dir/t/kernels.csv") - 1))
[ "$kernels" -eq "$(json kernels)" ] || { echo "FAIL: $kernels kernel rows, $(json kernels) kernels"; fails=$((fails + 1)); }
acc=$(awk -F, 'NR > 1 { s += $5 } END { print s + 0 }' "$dir/t/accesses.csv")
[ "$acc" -eq $(($(json gpu_faults) + $(json remote_samples))) ] ||
	{ echo "FAIL: accesses.csv counts $acc, gpu_faults $(json gpu_faults) + samples $(json remote_samples)"; fails=$((fails + 1)); }
# Block columns in 64 KB blocks: an access row's block lies within its
# allocation's [first_block, first_block + blocks), which cover its bytes; a
# fault row's block is its page (an arena offset) >> 16.
awk -F, 'FNR == 1 { next }
	FILENAME ~ /allocations/ { lo[$1] = $3; hi[$1] = $3 + $4
		if ($4 != int(($5 + 65535) / 65536)) { print "allocation " $1 ": " $4 " blocks for " $5 " bytes"; bad++ }
		next }
	!($3 in lo) || $4 < lo[$3] || $4 >= hi[$3] { print "access row outside its allocation: " $0; bad++ }
	END { exit bad > 0 }' "$dir/t/allocations.csv" "$dir/t/accesses.csv" ||
	{ echo "FAIL: accesses.csv and allocations.csv disagree on blocks"; fails=$((fails + 1)); }
awk -F, 'function hex(s, i, v) { v = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	NR > 1 && $3 != "" { p = ($3 ~ /^0x/) ? hex($3) : $3 + 0
		if (int(p / 65536) != $4) { print "fault row: " $0; bad++ } }
	END { exit bad > 0 }' "$dir/t/faults.csv" ||
	{ echo "FAIL: a faults.csv block is not its page >> 16"; fails=$((fails + 1)); }
# Every row has as many fields as its header.
for f in "$dir"/t/*.csv; do
	awk -F, 'NR == 1 { n = NF; next } NF != n { bad++ } END { exit bad > 0 }' "$f" ||
		{ echo "FAIL: $f has rows with a wrong field count"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] || exit 1
echo "traces add up to the report"
