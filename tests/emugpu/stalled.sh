#!/usr/bin/env bash
# Description: CTAs that stall on far faults make room for spare CTA slots at
# once, not when they finish. rendezvous.c's 16 CTAs each take a far fault
# and then wait until all 16 have started: they can only if the executor
# learned that CTAs stall (the driver calls its `stalled` hook when it
# fetches GPU faults) and let spare slots join. Without the hook, the main
# workers (one per CPU) hold their CTAs, whose hand-out never ends, and the
# rendezvous times out. Who ran, not how fast: it cannot flake on a busy
# machine. Also without the GMMU build's direct faults (plain userfaultfd).
# usage: stalled.sh BUILD_DIR
set -u
build=$1
prog=$build/tests/bin/emugpu_rendezvous
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
for backend in remap copy; do
	out=$("$build/bin/uvmemu" run --backend $backend --sms 4 --ctas-per-sm 4 --summary off -- \
		"$prog" 2>&1)
	rc=$?
	echo "$backend: $out"
	[ $rc -eq 0 ] || { echo "FAIL: $backend: the CTAs never all ran at once (exit $rc)"; exit 1; }
done
