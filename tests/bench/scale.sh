#!/usr/bin/env bash
# Description: bench/scale/run at two tiny sizes under remap: both runs
# verify, each row has its rate, CPU seconds per GB migrated, the machine's
# map-touch estimate per GB and cores busy (the report's
# roi_cpu_s over roi_s, within the machine's CPUs), and the
# summary line gives the largest size over the smallest (the ratio of the
# sizes' median rates over --repeat runs) beside the machine's
# own ratio (bench-pt-cycle: both sizes' lines, every round's figure
# positive); an unknown option, a bad --repeat or size names itself and exits 2;
# bench-pt-cycle refuses bad sizes and steps with exit status 2.
set -u
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

table=$("$src/bench/scale/run" --build "$build" --out "$out" --sizes "4M 8M" --backends remap --repeat 2 vecadd 2>&1) ||
	{ echo "FAIL: bench/scale/run failed: $table"; exit 1; }
echo "$table"
grep -q '^workload .* MB/s *cpu_s/GB *map_s/GB *cores ' <<<"$table" ||
	fail "no cpu_s/GB, map_s/GB and cores columns"
rows=$(grep -E '^vecadd +remap +[48]M +pass ' <<<"$table")
[ "$(printf '%s\n' "$rows" | grep -c .)" = 4 ] || fail "expected four verified rows (two sizes, --repeat 2)"
ncpu=$(nproc)
while read -r _ _ size _ _ _ rate cpu map cores _; do
	awk -v r="$rate" -v c="$cpu" -v m="$map" -v k="$cores" -v n="$ncpu" \
		'BEGIN { exit !(r > 0 && c > 0 && m >= 0 && k > 0 && k <= n + 0.01) }' ||
		fail "$size: rate $rate, cpu_s/GB $cpu, map_s/GB $map, cores $cores (of $ncpu) out of range"
done <<<"$rows"
grep -Eq "^vecadd remap: migrated bytes per second, largest over smallest size: [0-9]+\.[0-9]{2} \(the machine's page-table work alone: [0-9]+\.[0-9]{2}\)$" <<<"$table" ||
	fail "no summary line with the machine's ratio"
for sz in 4 8; do
	line=$(grep "^bench-pt-cycle: $sz MiB: us per block " <<<"$table") || { fail "no bench-pt-cycle line for $sz MiB"; continue; }
	awk '{ sub(/.*steps:/, ""); sub(/\(median.*/, ""); if (NF != 3) exit 1; for (i = 1; i <= NF; i++) if ($i <= 0) exit 1 }' <<<"$line" ||
		fail "bench-pt-cycle $sz MiB: not three positive rounds: $line"
done
for bad in "8M 4M" "4M 8M 0" "4Q 8M" "4M"; do
	# shellcheck disable=SC2086 # the words are the arguments
	"$build/bin/bench-pt-cycle" $bad >/dev/null 2>&1
	rc=$?
	[ $rc = 2 ] || fail "bench-pt-cycle $bad: exit status $rc, expected 2"
done
for sz in 4M 8M; do
	for k in 1 2; do
		[ -s "$out/vecadd.remap.$sz.$k.json" ] || fail "no report for $sz, run $k"
	done
done
# The summary's ratio is of the median rates: with two runs, their mean
# (from the reports; within 0.01 for the rounding).
rate() { jq '(.bytes_h2d + .bytes_d2h) / 1e6 / .roi_s' "$out/vecadd.remap.$1.json"; }
want=$(awk -v a="$(rate 4M.1)" -v b="$(rate 4M.2)" -v c="$(rate 8M.1)" -v d="$(rate 8M.2)" \
	'BEGIN { printf "%.4f", (c + d) / (a + b) }')
got=$(sed -n 's/.*largest over smallest size: \([0-9.]*\) .*/\1/p' <<<"$table")
awk -v w="$want" -v g="$got" 'BEGIN { exit !(g != "" && g - w < 0.0101 && w - g < 0.0101) }' ||
	fail "summary ratio $got is not $want, the median rates' ratio"
err=$("$src/bench/scale/run" --build "$build" --bogus 2>&1)
rc=$?
[ $rc = 2 ] || fail "--bogus: exit status $rc, expected 2"
grep -q "unknown option '--bogus' (accepted: " <<<"$err" || fail "--bogus: $err"
for bad in "--repeat 0" "--repeat x" "--sizes 4Q"; do
	# shellcheck disable=SC2086 # the words are the arguments
	err=$("$src/bench/scale/run" --build "$build" $bad 2>&1)
	rc=$?
	[ $rc = 2 ] || fail "$bad: exit status $rc, expected 2"
	grep -qF -- "${bad%% *}" <<<"$err" || fail "$bad: the error does not name ${bad%% *}: $err"
done
[ $fails = 0 ] || exit 1
echo "bench/scale/run: table, CPU columns and errors as documented"
