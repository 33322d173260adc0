#!/usr/bin/env bash
# Description: hotspot rejects a malformed or mis-sized input file with one
# line on stderr naming the file and the line, and exit status 2.
# usage: hotspot_bad_input.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
bin=$build/bin/hotspot
export UVMEMU_SUMMARY=off
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# A good 16 x 16 grid to pair with each bad one.
seq 1 256 | sed 's/$/.5/' >"$dir/good"

rc=0
# expect NAME WANT_LINE ARGS...: runs hotspot with ARGS, wants exit 2 and
# exactly one stderr line "hotspot: FILE:WANT_LINE: ..." for $dir/NAME.
expect() {
	local name=$1 line=$2 err st
	shift 2
	err=$("$bin" "$@" 2>&1 >/dev/null)
	st=$?
	if [ $st -ne 2 ]; then
		echo "FAIL ($name): exit $st, want 2; stderr: $err"; rc=1; return
	fi
	if [ "$(wc -l <<<"$err")" -ne 1 ]; then
		echo "FAIL ($name): want one line on stderr, got:"; echo "$err"; rc=1; return
	fi
	if ! grep -q "^hotspot: $dir/$name:$line: " <<<"$err"; then
		echo "FAIL ($name): want 'hotspot: $dir/$name:$line: ...', got: $err"; rc=1; return
	fi
	echo "ok ($name): $err"
}

# Not a number on line 3.
{ echo 1.0; echo 2.0; echo abc; seq 4 256; } >"$dir/word"
expect word 3 --temp "$dir/word" --power "$dir/good"
# A number followed by junk.
{ seq 1 9; echo "10.5x"; seq 11 256; } >"$dir/junk"
expect junk 10 --temp "$dir/junk" --power "$dir/good"
# A blank line.
{ seq 1 99; echo; seq 101 256; } >"$dir/blank"
expect blank 100 --temp "$dir/blank" --power "$dir/good"
# Two numbers on a line.
{ seq 1 4; echo "5 6"; seq 6 256; } >"$dir/two"
expect two 5 --temp "$dir/two" --power "$dir/good"
# Not finite.
{ seq 1 6; echo nan; seq 8 256; } >"$dir/nan"
expect nan 7 --temp "$dir/nan" --power "$dir/good"
# The power file is the bad one.
expect word 3 --temp "$dir/good" --power "$dir/word"
# Too few values for the grid given: the error names the line after the last.
seq 1 200 >"$dir/short"
expect short 201 --rows 16 --cols 16 --temp "$dir/short" --power "$dir/good"
# Too many values for the grid given.
seq 1 300 >"$dir/long"
expect long 257 --rows 16 --cols 16 --temp "$dir/long" --power "$dir/good"
# A power file that does not match the temperature grid read first.
expect short 201 --temp "$dir/good" --power "$dir/short"
# Without --rows/--cols, a count that is not a square.
seq 1 300 >"$dir/oblong"
expect oblong 300 --temp "$dir/oblong" --power "$dir/good"
# A file that does not exist.
err=$("$bin" --temp "$dir/missing" --power "$dir/good" 2>&1 >/dev/null)
st=$?
if [ $st -ne 2 ] || [ "$(wc -l <<<"$err")" -ne 1 ] || ! grep -q "$dir/missing" <<<"$err"; then
	echo "FAIL (missing): exit $st, stderr: $err"; rc=1
else
	echo "ok (missing): $err"
fi
# And the good pair itself is accepted, so the failures above are the files'.
out=$("$bin" --temp "$dir/good" --power "$dir/good" --quiet 2>&1)
st=$?
[ $st -eq 0 ] && grep -q "^hotspot: verify pass" <<<"$out" ||
	{ echo "FAIL (good): exit $st: $out"; rc=1; }
exit $rc
