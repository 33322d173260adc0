#!/usr/bin/env bash
# Description: issue 35's smaller defects (8), one check each: nan is not a
# number (it was "too large"); hexadecimal is refused for every number (it
# was accepted for ratios only); --config DIR names the reason; an option a
# config file sets twice is a warning naming both lines (the last one won
# silently); under the lowest ulimit -n a run starts with, the warning
# blames the file descriptors (it blamed the thread); under ulimit -v the
# message names the limit and the way out; a report that cannot be written is an error status, at start
# (/proc/version, for root) and at exit (its directory gone); an unknown
# reuse rate is null (it was -1); the summary's driver stages add up to 100%
# with service's parts inside it (they summed to 177%), the device views'
# share inside unmap and map (summed again, 140%); a workload's --help
# prints no runtime summary after its usage.
set -u
build=$1
probe=$build/tests/bin/probe
ra=$build/bin/ra
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "SKIP: jq reads the reports"; exit 77; }


# Numbers: one rule.
expect 2 "^uvmemu run: --dilation='nan': expected a number >= 1, or auto$" run --dilation nan
expect 2 "^uvmemu run: --oversub='nan': expected a number$" run --oversub nan
expect 2 "^uvmemu run: --oversub='0x10': expected a number$" run --oversub 0x10
expect 2 "^uvmemu run: --density-threshold='0x0.8p0': expected a number$" run --density-threshold 0x0.8p0
expect 2 "^uvmemu run: --device-mem='0x10': expected a size" run --device-mem 0x10

# --config: why it cannot be read; an option set twice.
expect 2 "^uvmemu run: --config $dir: cannot read it: Is a directory$" run --config "$dir"
printf 'batch = 128\n# a comment\nuvm_perf_fault_batch_count = 64\n' >"$dir/twice.conf"
expect 0 "^uvmemu: warning: $dir/twice.conf:3: uvm_perf_fault_batch_count sets --batch again \(line 1: batch\); line 3 wins$" \
	run --config "$dir/twice.conf"

# Process limits: what ran out, and what to do. How many descriptors the
# emulator opens before the signal's pipe depends on the clock (the model
# clock's doorbell is one more) and on what the caller left open: under the
# lowest limit a run starts with, none is left for the pipe.
for n in $(seq 6 32); do
	err=$(ulimit -n "$n" && run 2>&1 >/dev/null); rc=$?
	[ $rc -eq 0 ] && break
done
expect_output "ulimit -n $n (the lowest a run starts under)" 0 "^uvmemu: warning: no report will be written if SIGINT or SIGTERM ends the run: no file descriptor left for its pipe \(raise ulimit -n\)$" "$err" $rc
err=$(ulimit -v 4000000 && run 2>&1 >/dev/null)
expect_output "ulimit -v 4000000" 2 "^uvmemu: .*address space.*\(ulimit -v allows 3\.81 GiB: .* run it under ulimit -v unlimited\)$" "$err" $?

# A report that cannot be written is not a success.
if [ "$(id -u)" -eq 0 ]; then
	expect 2 "^uvmemu: --report /proc/version: cannot write the report: " run --report /proc/version
fi
mkdir "$dir/gone" "$dir/gone2"
expect 1 "^uvmemu: cannot write report $dir/gone/r.json: No such file or directory$" \
	"$build/bin/uvmemu" run --summary off --report "$dir/gone/r.json" -- "$build/tests/bin/rel_report_gone"
expect 1 "^uvmemu: cannot write report $dir/gone2/r.json: No such file or directory$" \
	env UVMEMU_SUMMARY=off UVMEMU_REPORT="$dir/gone2/r.json" "$build/tests/bin/rel_report_gone"

# Unknown reuse figures are null: a run with no launch measured none.
"$build/bin/uvmemu" run --summary off --report "$dir/reuse.json" -- true
[ "$(jq -c '.data_reuse | [.launches_measured, .mean_rate, .overall_rate]' "$dir/reuse.json")" = "[0,null,null]" ] ||
	{ echo "FAIL: data_reuse $(jq -c .data_reuse "$dir/reuse.json"), want both rates null"; fails=$((fails + 1)); }

# The driver's stages: the whole is 100%, service's parts nested in it,
# and the device views' share nested in unmap and map (at 150% the
# evictions' device-view unmaps are a sizeable part: counted at the top
# level too, the stages summed to 140%).
line=$("$build/bin/uvmemu" run --oversub 1.5 -- "$probe" --footprint 4 2>&1 >/dev/null | grep '^  driver ')
view='( \[device view [0-9]+%\])?'
if ! grep -Eq "service [0-9]+% \\(policy [0-9]+%, unmap [0-9]+%$view, copy [0-9]+%, map [0-9]+%$view\\)" <<<"$line" ||
	! grep -q 'unmap [0-9]*% \[device view' <<<"$line" || grep -q 'gpu_' <<<"$line" ||
	! sed -E 's/\([^)]*\)//; s/.*busy://' <<<"$line" | tr ' ' '\n' | grep -E '%$' |
	tr -d % | awk '{ s += $1 } END { exit !(s >= 95 && s <= 105) }'; then
	echo "FAIL: the driver line: $line"; fails=$((fails + 1))
else
	echo "ok: $line"
fi

# --help: the usage and nothing else, natively and emulated.
for how in native emulated; do
	if [ $how = native ]; then
		out=$("$ra" --help 2>"$dir/help.err"); rc=$?
	else
		out=$("$build/bin/uvmemu" run -- "$ra" --help 2>"$dir/help.err"); rc=$?
	fi
	if [ $rc -ne 0 ] || ! grep -q '^usage: ra' <<<"$out" || [ -s "$dir/help.err" ]; then
		echo "FAIL: $how ra --help: exit $rc, stderr:"; cat "$dir/help.err"; fails=$((fails + 1))
	else
		echo "ok: $how ra --help: usage only"
	fi
done
[ $fails -eq 0 ]
