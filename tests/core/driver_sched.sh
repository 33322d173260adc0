#!/usr/bin/env bash
# Description: --driver-sched puts the driver thread in the scheduling class
# it names, as the kernel sees it (ps), and the report says what took: fifo
# is real time where permitted and a clear error where not; auto falls back
# to a normal thread with the reason, and keeps the class of a process
# started under SCHED_IDLE; a wrong value names the accepted ones.
set -u
build=$1
uvmemu=$(cd "$build" && pwd)/bin/uvmemu
tmp=$(mktemp -d)
chmod 1777 "$tmp" # the nobody cases write their reports here too
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Runs `sleep` under the emulator with the given launcher and options, and
# prints the driver thread's class (a command, not a shell function, so that
# $! is the program's pid) as ps shows it (TS, FF, IDL...) and then
# the report's system.driver_sched.
class_of() {
	local report=$tmp/r.json cls=
	rm -f "$report"
	"$@" --summary off --report "$report" -- sleep 1 &
	local pid=$!
	for _ in $(seq 50); do
		cls=$(ps -L -o cls=,comm= -p "$pid" 2>/dev/null | awk '$2 == "uvmemu-driver" {print $1}')
		[ -n "$cls" ] && break
		sleep 0.02
	done
	wait "$pid" || echo "the run exited $?" >&2
	echo "$cls"
	jq -r .system.driver_sched "$report" 2>/dev/null
}

expect() { # what, got, class, report pattern
	local cls sched
	cls=$(sed -n 1p <<<"$2")
	sched=$(sed -n 2p <<<"$2")
	[ "$cls" = "$3" ] || fail "$1: the driver thread's class is '$cls', not $3 ($2)"
	grep -Eq "$4" <<<"$sched" || fail "$1: system.driver_sched is '$sched', not /$4/"
}

expect "--driver-sched normal" "$(class_of "$uvmemu" run --driver-sched normal)" TS '^normal'
if chrt -f 1 true 2>/dev/null; then
	expect "auto, permitted" "$(class_of "$uvmemu" run)" FF '^SCHED_FIFO 1'
	expect "--driver-sched fifo" "$(class_of "$uvmemu" run --driver-sched fifo)" FF '^SCHED_FIFO 1'
else
	expect "auto, refused" "$(class_of "$uvmemu" run)" TS 'SCHED_FIFO refused'
fi
expect "auto under chrt --idle" "$(class_of chrt --idle 0 "$uvmemu" run)" IDL \
	'^SCHED_IDLE, as the process was started'

out=$("$uvmemu" run --driver-sched rt -- true 2>&1) && fail "--driver-sched rt was accepted"
grep -q "driver-sched.*auto|fifo|normal" <<<"$out" || fail "a wrong value does not name the accepted ones: $out"

# Where real time is refused, an explicit fifo is an error that says how to
# get it; auto runs on as a normal thread.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- test -x "$uvmemu"; then
	nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups -- prlimit --rtprio=0)
	out=$(cd /tmp && "${nobody[@]}" "$uvmemu" run --driver-sched fifo -- true 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "fifo refused: exit $rc, not 2 ($out)"
	grep -q "^uvmemu: --driver-sched fifo: SCHED_FIFO refused.*ulimit -r 1" <<<"$out" ||
		fail "fifo refused: unclear error: $out"
	expect "auto as nobody" "$(cd /tmp && class_of "${nobody[@]}" "$uvmemu" run 2>/dev/null)" \
		TS 'SCHED_FIFO refused'
else
	echo "(not root or no setpriv: the refused cases are not checked here)"
fi
[ $fails -eq 0 ] || exit 1
echo "driver scheduling classes as asked"
