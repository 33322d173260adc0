#!/usr/bin/env bash
# Description: an experiment run in slices (--set 'KEY: VALUE') into one
# results directory tabulates every slice (experiment 01's quick matrix,
# one oversubscription per slice: 2 + 2 runs, 4 in the footer); a run
# stopped by --timeout has the status "timeout" in rows.json, not "failed";
# --set naming a key the matrix lacks, and a --timeout that is not a whole
# number of seconds, are refused with exit status 2 and name what is wrong.
# Usage: slice.sh BUILD SRC
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
run=$src/bench/experiments/01-oversub/run
# shellcheck source=sweep_prelude.sh
. "$(dirname "$0")/sweep_prelude.sh"
footer_runs() { sed -n 's/^runs: \([0-9]*\), passing: \([0-9]*\);.*/\1 \2/p' "$dir/$1/table.md"; }

for os in 1.0 1.25; do
	"$run" --quick --build "$build" --out "$dir/s" --set "oversub: $os" >"$dir/log-$os" 2>&1 ||
		fail "the slice oversub $os exited non-zero: $(tail -5 "$dir/log-$os")"
done
[ "$(footer_runs s)" = "4 4" ] || fail "two slices of 2 runs: footer '$(footer_runs s)', not '4 4'"

# bfs at 512 MB takes seconds to generate its graph alone: 1 s stops it.
"$run" --quick --build "$build" --out "$dir/t" --timeout 1 --set "oversub: 1.0" \
	--set "args: --footprint 512M --quiet" >"$dir/log-t" 2>&1
n=$(jq '[.[] | select(.exit == "timeout")] | length' "$dir/t/rows.json" 2>/dev/null)
[ "$n" = 2 ] || fail "--timeout 1: $n runs with status timeout in rows.json, not 2: $(jq -c 'map({run, exit})' "$dir/t/rows.json" 2>&1) $(tail -3 "$dir"/t/logs/*.err 2>&1)"

"$run" --quick --build "$build" --out "$dir/b" --set "no_such_key: 1" >/dev/null 2>"$dir/err1"
rc=$?
[ $rc -eq 2 ] || fail "--set with an unknown key exited $rc, not 2"
grep -q "no_such_key" "$dir/err1" || fail "the error does not name the key: $(cat "$dir/err1")"
"$run" --quick --build "$build" --out "$dir/b" --timeout soon >/dev/null 2>"$dir/err2"
rc=$?
[ $rc -eq 2 ] || fail "--timeout soon exited $rc, not 2"
grep -q -- "--timeout" "$dir/err2" || fail "the error does not name --timeout: $(cat "$dir/err2")"
[ $fails -eq 0 ] && echo "PASS: slices and timeouts" || exit 1
