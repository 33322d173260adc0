#!/usr/bin/env bash
# Description: the core data-integrity tests pass as an unprivileged user
# (setpriv to nobody) under --fault-capture user-mode-only, which such a
# user can have where full userfaultfd is refused; skipped with the reason
# where this system cannot run a program as nobody.
set -u
build=$1
command -v setpriv >/dev/null || { echo "SKIP: no setpriv"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root, cannot switch to nobody"; exit 77; }
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
as_nobody test -x "$build/tests/bin/core_eviction" ||
	{ echo "SKIP: nobody cannot reach $build (a private directory on the way)"; exit 77; }
fails=0
for t in eviction concurrent remote; do
	out=$(cd /tmp && as_nobody env UVMEMU_FAULT_CAPTURE=user-mode-only UVMEMU_BACKEND=remap \
		"$build/tests/bin/core_$t" 2>&1); rc=$?
	if [ $rc -eq 77 ]; then
		echo "SKIP: core_$t: $(tail -1 <<<"$out")"; exit 77
	fi
	[ $rc -eq 0 ] || { echo "$out" | tail -20; echo "FAIL: core_$t as nobody: exit $rc"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] && echo "core tests pass as nobody under user-mode-only"
[ $fails -eq 0 ]
