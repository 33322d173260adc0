#!/usr/bin/env bash
# Description: bench/scale/run at two tiny sizes under remap: both runs
# verify, each row has its rate, CPU seconds per GB migrated, the machine's
# map-touch estimate per GB and cores busy (the report's
# roi_cpu_s over roi_s, within the machine's CPUs), and the
# summary line gives the largest size over the smallest; an unknown option
# names the accepted ones and exits 2.
set -u
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

table=$("$src/bench/scale/run" --build "$build" --out "$out" --sizes "4M 8M" --backends remap vecadd 2>&1) ||
	{ echo "FAIL: bench/scale/run failed: $table"; exit 1; }
echo "$table"
grep -q '^workload .* MB/s *cpu_s/GB *map_s/GB *cores ' <<<"$table" ||
	fail "no cpu_s/GB, map_s/GB and cores columns"
rows=$(grep -E '^vecadd +remap +[48]M +pass ' <<<"$table")
[ "$(printf '%s\n' "$rows" | grep -c .)" = 2 ] || fail "expected two verified rows"
ncpu=$(nproc)
while read -r _ _ size _ _ _ rate cpu map cores _; do
	awk -v r="$rate" -v c="$cpu" -v m="$map" -v k="$cores" -v n="$ncpu" \
		'BEGIN { exit !(r > 0 && c > 0 && m >= 0 && k > 0 && k <= n + 0.01) }' ||
		fail "$size: rate $rate, cpu_s/GB $cpu, map_s/GB $map, cores $cores (of $ncpu) out of range"
done <<<"$rows"
grep -Eq '^vecadd remap: migrated bytes per second, largest over smallest size: [0-9]+\.[0-9]{2}$' <<<"$table" ||
	fail "no summary line"
for sz in 4M 8M; do
	[ -s "$out/vecadd.remap.$sz.json" ] || fail "no report for $sz"
done
err=$("$src/bench/scale/run" --build "$build" --bogus 2>&1)
rc=$?
[ $rc = 2 ] || fail "--bogus: exit status $rc, expected 2"
grep -q "unknown option '--bogus' (accepted: " <<<"$err" || fail "--bogus: $err"
[ $fails = 0 ] || exit 1
echo "bench/scale/run: table, CPU columns and errors as documented"
