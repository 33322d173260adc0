#!/usr/bin/env bash
# Description: bench/sweep expands a 2-run matrix (one workload, two
# policies), runs it with GNU parallel, and leaves 2 JSON reports and a
# merged results.csv with a header and 2 rows whose verify column says pass,
# plus the compare figure; alternatives may name config files (relative to
# the matrix) that reach their runs; a page line gives each page size its
# runs, named by it (a bad size is refused, exit 2); a matrix with a failing run keeps that run in the
# CSV with its status and makes the sweep exit non-zero naming it; a bad
# matrix is refused with exit status 2.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
sweep=$src/bench/sweep
# shellcheck source=../bench/sweep_prelude.sh
. "$(dirname "$0")/../bench/sweep_prelude.sh"
col() { # CSV COLUMN-NAME ROW: a field of results.csv (no commas inside the fields read)
	awk -F, -v name="\"$2\"" -v row="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR == row + 1 && c { gsub(/"/, "", $c); print $c }' "$1"
}

cat >"$dir/two.matrix" <<'EOF'
# two runs: first touch and adaptive migration at 125%
workloads: ra
oversub: 1.25
policy: --migrate first-touch | --migrate adaptive --penalty 2
args: --footprint 4M --updates 4000 --quiet
EOF
if ! "$sweep" "$dir/two.matrix" --build "$build" --out "$dir/out" --jobs 2 >"$dir/log" 2>&1; then
	fail "the sweep failed: $(cat "$dir/log")"
fi
reports=$(find "$dir/out/runs" -name '*.json' ! -name '*.params.json' | wc -l)
[ "$reports" -eq 2 ] || fail "$reports JSON reports, not 2"
csv=$dir/out/results.csv
[ -f "$csv" ] || { echo "FAIL: no results.csv"; exit 1; }
[ "$(wc -l <"$csv")" -eq 3 ] || fail "results.csv has $(wc -l <"$csv") lines, not a header and 2 rows"
for row in 1 2; do
	[ "$(col "$csv" verify $row)" = pass ] || fail "row $row: verify is '$(col "$csv" verify $row)'"
	[ "$(col "$csv" status $row)" = pass ] || fail "row $row: status is '$(col "$csv" status $row)'"
	w=$(col "$csv" wall_s $row)
	awk -v w="$w" 'BEGIN { exit !(w > 0) }' || fail "row $row: wall_s '$w'"
done
[ "$(col "$csv" policy 2)" = "--migrate adaptive --penalty 2" ] || fail "row 2 does not name its policy"
[ -s "$dir/out/compare-ra.png" ] || fail "no compare figure"

# A failing run stays in the CSV with its status; the sweep exits non-zero.
cat >"$dir/bad.matrix" <<'EOF'
workloads: vecadd
args: --footprint 2M --quiet | --footprint 2M --no-such-option
EOF
"$sweep" "$dir/bad.matrix" --build "$build" --out "$dir/bad" >"$dir/badlog" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a sweep with a failing run exited $rc, not 1"
grep -q 'no-such-option.*exit-' "$dir/badlog" || fail "the failing run is not named: $(cat "$dir/badlog")"
[ "$(wc -l <"$dir/bad/results.csv")" -eq 3 ] || fail "the failing run is not kept in results.csv"
grep -q '"exit-[0-9]*"' "$dir/bad/results.csv" || fail "results.csv has no exit status for the failed run"

# A config file per alternative, named relative to the matrix.
mkdir -p "$dir/exp"
printf 'uvm_perf_fault_batch_count = 32  # the driver name\n' >"$dir/exp/small.conf"
printf 'batch = 64\n' >"$dir/exp/large.conf"
cat >"$dir/exp/cfg.matrix" <<'EOF2'
workloads: vecadd
config: small.conf | large.conf
args: --footprint 2M --quiet
EOF2
"$sweep" "$dir/exp/cfg.matrix" --build "$build" --out "$dir/cfg" >"$dir/cfglog" 2>&1 ||
	fail "the config sweep failed: $(cat "$dir/cfglog")"
for c in small:32 large:64; do
	r=$(find "$dir/cfg/runs" -name "*cfg-${c%:*}*.json" ! -name '*.params.json')
	[ -n "$r" ] && [ "$(jq .config.batch "$r")" = "${c#*:}" ] ||
		fail "the ${c%:*}.conf run's batch is '$(jq .config.batch "$r" 2>&1)', not ${c#*:}"
done
grep -q "$dir/exp/large.conf" "$dir/cfg/results.csv" || fail "results.csv does not name the config file"
printf 'workloads: vecadd\nconfig: missing.conf\n' >"$dir/exp/missing.matrix"
"$sweep" "$dir/exp/missing.matrix" --build "$build" --out "$dir/missing" >/dev/null 2>"$dir/missingerr"
[ $? -eq 2 ] && grep -q "missing.matrix:2: config 'missing.conf': cannot read" "$dir/missingerr" ||
	fail "a missing config file: $(cat "$dir/missingerr")"

# A page line: one run per page size, named by it, with --page-size.
printf 'workloads: ra\npage: 64k 4k\nargs: --footprint 4M --updates 4000 --quiet\n' >"$dir/page.matrix"
"$sweep" "$dir/page.matrix" --build "$build" --out "$dir/page" --dry-run >"$dir/pagecmds" 2>&1 ||
	fail "the page matrix failed: $(cat "$dir/pagecmds")"
for pg in 64k 4k; do
	[ "$(grep -c -- "--page-size $pg " "$dir/pagecmds")" = 1 ] || fail "not one run with --page-size $pg: $(cat "$dir/pagecmds")"
	[ "$(jq -r .page "$dir/page/runs/ra_pg${pg}_pcie3_default_r1.params.json" 2>&1)" = "$pg" ] ||
		fail "no run ra_pg${pg}_pcie3_default_r1 with page $pg in its parameters"
done
printf 'workloads: ra\npage: 8k\n' >"$dir/badpage.matrix"
"$sweep" "$dir/badpage.matrix" --build "$build" --out "$dir/badpage" >/dev/null 2>"$dir/badpageerr"
[ $? -eq 2 ] && grep -q "page '8k': 4k, 64k or off" "$dir/badpageerr" ||
	fail "page 8k: $(cat "$dir/badpageerr")"

# A bad matrix is refused before anything runs.
printf 'workloads: ra\npolicies: --migrate always\n' >"$dir/typo.matrix"
"$sweep" "$dir/typo.matrix" --build "$build" --out "$dir/typo" >/dev/null 2>"$dir/typoerr"
rc=$?
[ $rc -eq 2 ] || fail "a matrix with an unknown key exited $rc, not 2"
grep -q "typo.matrix:2: unknown key 'policies'" "$dir/typoerr" || fail "the error does not name the line: $(cat "$dir/typoerr")"

[ $fails -eq 0 ] || exit 1
echo "sweep ran, merged and reported"
