#!/usr/bin/env bash
# Description: where only user-mode-only userfaultfd is allowed (an
# unprivileged user with vm.unprivileged_userfaultfd=0, made here with a
# seccomp filter and `nobody`, without touching the sysctl), --fault-capture
# uffd stops at start with status 2 and one line naming the three ways to get
# full userfaultfd; auto and user-mode-only run, after one warning line
# saying which capture and why, and that unwrapped system calls on
# non-resident managed memory fail with EFAULT (issue 11, defect 3: the
# fallback was silent); where userfaultfd is refused altogether (a
# container's seccomp profile), auto runs under the mprotect capture and
# says why (issue 14).
set -u
build=$1
probe=$build/tests/bin/probe
deny=$build/tests/bin/deny-userfaultfd
. "$(dirname "$0")/lib.sh"

run() { "$deny" --user-mode-only "$build/bin/uvmemu" run --summary off "$@" -- "$probe" --footprint 4; }
run_none() { "$deny" "$build/bin/uvmemu" run --summary off "$@" -- "$probe" --footprint 4; }

# The helper refuses the system call's kernel-mode form; /dev/userfaultfd must
# be refused too (root-only as shipped; the helper drops root).
if [ -e /dev/userfaultfd ]; then
	if { [ "$(id -u)" -eq 0 ] && [ "$(stat -c %a /dev/userfaultfd | cut -c3)" -ge 6 ]; } ||
		{ [ "$(id -u)" -ne 0 ] && [ -w /dev/userfaultfd ]; }; then
		echo "SKIP: the user the program runs as can open /dev/userfaultfd: full userfaultfd cannot be taken away"
		exit 77
	fi
fi
err=$(run 2>&1 >/dev/null); rc=$?
expect_output "auto" 0 "^uvmemu: warning: --fault-capture user-mode-only \\(full userfaultfd not permitted.*; user-mode-only works\\): system calls other than those the runtime wraps .* fail with EFAULT" "$err" $rc
err=$(run --fault-capture uffd 2>&1 >/dev/null); rc=$?
expect_output "--fault-capture uffd" 2 "sysctl vm.unprivileged_userfaultfd=1" "$err" $rc
err=$(run --fault-capture user-mode-only 2>&1 >/dev/null); rc=$?
expect_output "--fault-capture user-mode-only" 0 "^uvmemu: warning: --fault-capture user-mode-only \\(asked for\\): system calls .* fail with EFAULT" "$err" $rc
err=$(run_none 2>&1 >/dev/null); rc=$?
expect_output "auto, no userfaultfd" 0 "^uvmemu: warning: --fault-capture mprotect \\(userfaultfd: .*; user-mode-only: userfaultfd: .*\\): system calls .* fail with EFAULT" "$err" $rc
err=$(run --fault-capture kernel 2>&1 >/dev/null); rc=$?
expect_output "--fault-capture kernel" 2 "accepted values are auto\|uffd\|user-mode-only\|mprotect" "$err" $rc

[ $fails -eq 0 ] || exit 1
