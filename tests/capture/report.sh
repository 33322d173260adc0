#!/usr/bin/env bash
# Description: the report and `uvmemu info` say which fault capture ran and
# why, and count what went through it: under --fault-capture mprotect the
# faults caught by the signal handler and the system calls the runtime
# wrapped (cap_syscalls makes five), under user-mode-only the faults of the
# user-mode-only userfaultfd; `uvmemu info` names the capture auto picks,
# and gives the machine's first-access cost of a mapped block.
set -u
build=$1
. "$(dirname "$0")/../reliability/lib.sh"
report=$(mktemp)
trap 'rm -f "$report"' EXIT
fails=0
num() { field "$report" "$1"; }
# The capture's name and reason: the "system" object's, after the config echo.
sys_field() { grep -Eo "\"$1\": \"[^\"]*\"" "$report" | sed -E 's/.*: "(.*)"/\1/' | tail -1; }

err=$(UVMEMU_FAULT_CAPTURE=mprotect UVMEMU_REPORT=$report UVMEMU_DEVICE_MEM=16M \
	"$build/tests/bin/cap_syscalls" 2>&1 >/dev/null) || { echo "FAIL: cap_syscalls: $err"; exit 1; }
[ "$(sys_field fault_capture)" = mprotect ] || { echo "FAIL: fault_capture is $(sys_field fault_capture)"; fails=$((fails + 1)); }
[ "$(sys_field fault_capture_why)" = "asked for" ] || { echo "FAIL: fault_capture_why is $(sys_field fault_capture_why)"; fails=$((fails + 1)); }
[ "$(num signal_faults)" -gt 0 ] || { echo "FAIL: no signal faults counted"; fails=$((fails + 1)); }
[ "$(num wrapped_syscalls)" -ge 5 ] || { echo "FAIL: $(num wrapped_syscalls) system calls wrapped, expected 5 or more"; fails=$((fails + 1)); }
grep -Eq "^  capture mprotect \(asked for\): [1-9][0-9]* faults by signal, 0 user-mode-only, [5-9][0-9]* system calls wrapped" <<<"$err" ||
	{ echo "FAIL: no capture line in the summary:"; echo "$err"; fails=$((fails + 1)); }

err=$(UVMEMU_FAULT_CAPTURE=user-mode-only UVMEMU_REPORT=$report UVMEMU_DEVICE_MEM=16M \
	"$build/tests/bin/cap_syscalls" 2>&1 >/dev/null) || { echo "FAIL: cap_syscalls: $err"; exit 1; }
[ "$(sys_field fault_capture)" = user-mode-only ] || { echo "FAIL: fault_capture is $(sys_field fault_capture)"; fails=$((fails + 1)); }
[ "$(num user_mode_faults)" -gt 0 ] || { echo "FAIL: no user-mode-only faults counted"; fails=$((fails + 1)); }
[ "$(num signal_faults)" -eq 0 ] || { echo "FAIL: signal faults under user-mode-only"; fails=$((fails + 1)); }

info=$("$build/bin/uvmemu" info)
grep -Eq "^capture +auto picks (uffd|user-mode-only|mprotect): ." <<<"$info" ||
	{ echo "FAIL: uvmemu info names no capture:"; echo "$info"; fails=$((fails + 1)); }
grep -Eq "^map touch +([0-9]+\.[0-9]+ us per 64 KB block |not measured: )" <<<"$info" ||
	{ echo "FAIL: uvmemu info gives no map-touch figure:"; echo "$info"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "the capture is reported, with its counts"
[ $fails -eq 0 ]
