#!/usr/bin/env bash
# Description: bench-first-touch populates a memfd of the size asked and
# prints a microsecond figure for each eighth of it, the first-access probe's
# reading (or why it could not measure), then map_touch_us_64k=<first>,<again> and
# first_touch_us_64k=<first>,<last> as its last lines; a malformed or too
# small size gets the usage and exit status 2.
set -u
build=$1
bin=$build/bin/bench-first-touch
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

out=$("$bin" 4M) || fail "4M exited non-zero"
[ "$(printf '%s\n' "$out" | wc -l)" = 4 ] || fail "expected four lines: $out"
printf '%s\n' "$out" | head -n 1 | grep -Eq '^bench-first-touch: 4 MiB .*:( [0-9]+\.[0-9]){8}$' ||
	fail "no eight figures: $out"
printf '%s\n' "$out" | sed -n 2p | grep -Eq "^bench-first-touch: a mapped block's first access: ([0-9]+\.[0-9]+ us per 64 KB block |not measured: )" ||
	fail "no probe reading: $out"
printf '%s\n' "$out" | sed -n 3p | grep -Eq '^map_touch_us_64k=[0-9]+\.[0-9],[0-9]+\.[0-9]{2}$' ||
	fail "bad map_touch line: $out"
printf '%s\n' "$out" | tail -n 1 | grep -Eq '^first_touch_us_64k=[0-9]+\.[0-9],[0-9]+\.[0-9]$' ||
	fail "bad last line: $out"
for bad in "" 4x 100K -1 "4M 4M"; do
	# shellcheck disable=SC2086 # "4M 4M" is two arguments on purpose
	err=$("$bin" $bad 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] || fail "'$bad': exit status $rc, expected 2"
	grep -q "^usage: bench-first-touch SIZE" <<<"$err" || fail "'$bad': no usage: $err"
done
[ $fails = 0 ] || exit 1
echo "bench-first-touch: output and errors as documented"
