#!/usr/bin/env bash
# Description: Ctrl-C (SIGINT) and SIGTERM during an emulated run still give
# the run's summary on stderr and its JSON report, both marked interrupted,
# and flushed traces; then the process ends as the signal ends it (status
# 130 and 143 in a shell). Issue 11, defect 4: an interrupted run left
# nothing.
set -u
build=$1
spin=$build/tests/bin/rel_spin
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
# Background jobs of a shell without job control ignore SIGINT; with job
# control they keep the default action, as a program run from a terminal.
set -m

interrupt() {
	local sig=$1 want=$2 out=$dir/$1.out err=$dir/$1.err report=$dir/$1.json trace=$dir/$1.trace rc
	"$build/bin/uvmemu" run --oversub 2 --report "$report" --trace "$trace" --progress off \
		-- "$spin" 8 >"$out" 2>"$err" &
	local pid=$!
	for _ in $(seq 600); do
		grep -q ready "$out" 2>/dev/null && break
		sleep 0.1
	done
	if ! grep -q ready "$out"; then
		echo "FAIL: $sig: the program never got going"; cat "$err"; kill -KILL $pid; fails=$((fails + 1)); return
	fi
	kill -"$sig" $pid
	wait $pid; rc=$?
	if [ $rc -ne "$want" ]; then
		echo "FAIL: $sig: exit status $rc, want $want"; cat "$err"; fails=$((fails + 1)); return
	fi
	if ! grep -q "(emulated, interrupted by SIG$sig, model clock): verify" "$err"; then
		echo "FAIL: $sig: no summary marked interrupted on stderr:"; cat "$err"; fails=$((fails + 1)); return
	fi
	if [ ! -s "$report" ] || [ "$(field "$report" interrupted)" != true ] ||
		[ "$(field "$report" signal)" != "SIG$sig" ]; then
		echo "FAIL: $sig: the report is missing or not marked interrupted:"; cat "$report"; fails=$((fails + 1)); return
	fi
	if [ "$(field "$report" gpu_faults)" = 0 ] || [ "$(wc -l <"$trace/batches.csv")" -lt 2 ]; then
		echo "FAIL: $sig: no faults in the report or no batch rows in the trace"; fails=$((fails + 1)); return
	fi
	echo "ok: $sig -> exit $rc, $(grep -c . "$trace/batches.csv") batch rows, $(grep interrupted "$err")"
}

interrupt INT 130
interrupt TERM 143
[ $fails -eq 0 ] || exit 1
