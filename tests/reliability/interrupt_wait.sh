#!/usr/bin/env bash
# Description: SIGINT and SIGTERM end a run within 2 s, under either clock,
# with the summary and the report marked interrupted and the signal's exit
# status. Under --clock real the model makes the driver wait (here 1000 s
# per batch of far faults: --fault-latency 1s at dilation 1000); under the
# model clock (the default) nothing waits for the model, but the workers
# wait in real time at their loops' ends for their faults' batches. Such a
# model is allowed with one warning line under --clock real (none under the
# model clock, where it costs no wait), and a link slower than 1 MB/s is
# refused. Issue 35, defect 4: the driver slept through the signal, the
# report waited for the driver, and the process was still there minutes
# later (--link-bw 1 was accepted without a word).
set -u
build=$1
spin=$build/tests/bin/rel_spin
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
# Background jobs of a shell without job control ignore SIGINT.
set -m
command -v jq >/dev/null || { echo "SKIP: jq reads the report"; exit 77; }
slow=(--fault-latency 1s --dilation 1000)

# The issue's bound, 2 s from the signal to the end of the process; on this
# project's loaded 2-core VMs it takes 10-30 ms.
bound_ms=2000

interrupt() {
	local clock=$1 sig=$2 want=$3 err=$dir/$1.$2.err report=$dir/$1.$2.json rc t0 ms dog
	local out=$dir/$clock.$sig.out mark
	"$build/bin/uvmemu" run --clock "$clock" "${slow[@]}" --report "$report" --progress off \
		-- "$spin" 4 early >"$out" 2>"$err" &
	local pid=$!
	for _ in $(seq 600); do
		grep -q ready "$out" 2>/dev/null && break
		sleep 0.1
	done
	# The first kernel's faults reach the driver at once; give its batch
	# time to begin the 1000 s wait.
	sleep 1
	t0=$(date +%s%N)
	kill -"$sig" $pid
	# What the old code did (waited for ever) must not hang the test.
	(sleep 20 && kill -KILL $pid) >/dev/null 2>&1 &
	dog=$!
	wait $pid; rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill -- -$dog 2>/dev/null # the watchdog's job: its sleep too
	wait $dog 2>/dev/null
	if [ $rc -ne "$want" ] || [ $ms -gt $bound_ms ]; then
		echo "FAIL: $clock clock: $sig during a long wait: exit $rc after $ms ms, want $want within $bound_ms ms"
		cat "$err"; fails=$((fails + 1)); return
	fi
	if [ "$clock" = model ]; then
		mark="(emulated, interrupted by SIG$sig, model clock): verify"
	else
		mark="(emulated, real clock, interrupted by SIG$sig): verify"
	fi
	if ! grep -qF "$mark" "$err"; then
		echo "FAIL: $clock clock: $sig: no summary marked interrupted on stderr:"; cat "$err"
		fails=$((fails + 1)); return
	fi
	if [ "$(field "$report" interrupted)" != true ] || [ "$(field "$report" signal)" != "SIG$sig" ] ||
		[ "$(field "$report" clock)" != "$clock" ] || [ "$(field "$report" gpu_faults)" = 0 ]; then
		echo "FAIL: $clock clock: $sig: the report is not marked interrupted or has no fault:"
		cat "$report"; fails=$((fails + 1)); return
	fi
	# The wait the signal cut short did not end late.
	if [ "$(jq '.time_s.late_wake <= .wall_s' "$report")" != true ]; then
		echo "FAIL: $clock clock: $sig: late_wake $(jq .time_s.late_wake "$report") s in a run of $(jq .wall_s "$report") s"
		fails=$((fails + 1)); return
	fi
	echo "ok: $clock clock: $sig during a run whose batches take 1000 s -> exit $rc after $ms ms, $(field "$report" gpu_faults) GPU faults reported"
}

for clock in real model; do
	interrupt $clock INT 130
	interrupt $clock TERM 143
done

expect 2 "--link-bw='1': must be at least 1.00 MB/s" "$build/bin/uvmemu" run --link-bw 1 -- true
expect 0 "^uvmemu: warning: the model makes each batch of far faults wait 1000.000 s .*SIGINT or SIGTERM still ends it" \
	"$build/bin/uvmemu" run --summary off --clock real "${slow[@]}" -- true
# Under the model clock such a model costs no wait: nothing to warn about.
err=$("$build/bin/uvmemu" run --summary off --clock model "${slow[@]}" -- true 2>&1 >/dev/null)
if [ -n "$err" ]; then
	echo "FAIL: the model clock warned of waits it does not make:"; printf '%s\n' "$err"
	fails=$((fails + 1))
else
	echo "ok: no warning under the model clock"
fi
[ $fails -eq 0 ]
