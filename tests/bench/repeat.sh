#!/usr/bin/env bash
# Description: bench/repeat -n 2 --busy 1 on a tiny vecadd run prints a row
# for each figure (gpu_s, the modelled batches, roi_s) and, as its last
# line, gpu_s_spread_quiet=X% gpu_s_spread_load=Y% gpu_s_change_load=Z%
# (roi_s_... under --clock real, which has no gpu_s); its busy process is
# gone when it ends, and when it is stopped by SIGTERM while a run is in
# progress (which is stopped too); a bad -n or --busy, an unknown option, no
# command and a command naming --report are refused with exit status 2.
# Figures are not judged.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
repeat=$src/bench/repeat
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
"$build/bin/uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run=("$build/bin/uvmemu" run --oversub 1.25)
prog=("$build/bin/vecadd" --footprint 8M --quiet)
# The busy pids repeat names, all gone (a pid that is still there must not
# be a busy shell of ours: pids are reused, but not within a second).
busy_gone() {
	local p pids
	pids=$(sed -n 's/.*(busy pids \([0-9 ]*\)).*/\1/p' "$1")
	[ -n "$pids" ] || { fail "$2: no busy pids in the output: $(cat "$1")"; return; }
	for p in $pids; do
		! kill -0 "$p" 2>/dev/null || fail "$2: busy process $p still runs"
	done
}

"$repeat" -n 2 --busy 1 -- "${run[@]}" -- "${prog[@]}" >"$dir/out" 2>&1 ||
	{ echo "FAIL: bench/repeat exited non-zero"; cat "$dir/out"; exit 1; }
cat "$dir/out"
for f in gpu_s gpu.batches gpu.faults_per_batch gpu.vablocks_per_batch roi_s; do
	grep -Eq "^$f +[0-9]" "$dir/out" || fail "no row for $f"
done
tail -1 "$dir/out" | grep -Eq '^gpu_s_spread_quiet=[0-9]+\.[0-9]% gpu_s_spread_load=[0-9]+\.[0-9]% gpu_s_change_load=[+-][0-9]+\.[0-9]%$' ||
	fail "last line: $(tail -1 "$dir/out")"
busy_gone "$dir/out" "-n 2 --busy 1"

"$repeat" -n 1 --busy 2 --out "$dir/real" -- "${run[@]}" --clock real -- "${prog[@]}" >"$dir/out-real" 2>&1 ||
	fail "--clock real: exited non-zero: $(cat "$dir/out-real")"
tail -1 "$dir/out-real" | grep -Eq '^roi_s_spread_quiet=0\.0% roi_s_spread_load=0\.0% roi_s_change_load=[+-][0-9]+\.[0-9]%$' ||
	fail "--clock real: last line: $(tail -1 "$dir/out-real")"
[ "$(find "$dir/real" -name '*.json' | wc -l)" = 2 ] || fail "--out: not the two reports in $dir/real"
busy_gone "$dir/out-real" "--busy 2"

# Stopped while its loaded run is in progress: the quiet run leaves a
# marker, the loaded one then writes its pid and sleeps in place of exiting.
# shellcheck disable=SC2016 # the inner shell expands them
"$repeat" -n 1 --busy 1 -- sh -c '"$0" run --oversub 1.25 -- "$1" --footprint 8M --quiet || exit 1
	if [ -e "$2" ]; then echo $$ >"$2.pid"; exec sleep 60; fi; touch "$2"' \
	"$build/bin/uvmemu" "$build/bin/vecadd" "$dir/marker" >"$dir/out-term" 2>&1 &
pid=$!
for _ in $(seq 300); do
	[ -s "$dir/marker.pid" ] && break
	sleep 0.1
done
[ -s "$dir/marker.pid" ] || fail "SIGTERM: the loaded run never started: $(cat "$dir/out-term")"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc = 143 ] || fail "SIGTERM: exit status $rc, not 143: $(cat "$dir/out-term")"
busy_gone "$dir/out-term" "SIGTERM"
sleeper=$(cat "$dir/marker.pid" 2>/dev/null)
[ -z "$sleeper" ] || ! kill -0 "$sleeper" 2>/dev/null || { fail "SIGTERM: the run in progress ($sleeper) still runs"; kill "$sleeper"; }

bad() { # WHAT NAMED ARGS...: exit status 2 and an error naming NAMED
	local what=$1 named=$2 rc
	shift 2
	"$repeat" "$@" >/dev/null 2>"$dir/err"
	rc=$?
	[ $rc = 2 ] || fail "$what: exit status $rc, not 2"
	grep -qF -- "$named" "$dir/err" || fail "$what: the error does not name $named: $(cat "$dir/err")"
}
bad "-n 0" "-n '0'" -n 0 -- true
bad "-n x" "-n 'x'" -n x -- true
bad "--busy -1" "--busy '-1'" --busy -1 -- true
bad "an unknown option" "--bogus" --bogus -- true
bad "no command" "no command" -n 2
bad "--report in the command" "--report" -- "${run[@]}" --report "$dir/r.json" -- "${prog[@]}"
[ $fails = 0 ] || exit 1
echo "bench/repeat: figures, last line, busy processes stopped, errors as documented"
