#!/usr/bin/env bash
# Description: the object managers' and `uvmemu profile`'s bad input is one
# line on stderr naming the option or the file and line, with exit 2: a
# manager without a profile, an unknown scheme,
# a threshold out of range, a missing or malformed profile, a profile of
# another program (found at the launch that differs), `uvmemu profile`
# without --out or with an option that would make it inexact; a program that
# fails leaves no profile behind. A profile with --objects none is run with a
# one-line note that it is not read (issue 35).
set -u
build=$1
bin=$build/bin
threek=$build/tests/bin/threek
objuse=$build/tests/bin/objuse
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=../expect_error.sh
. "$(dirname "$0")/../expect_error.sh"

run() { "$bin/uvmemu" run --summary off "$@"; }
prof() { "$bin/uvmemu" profile --summary off "$@"; }

expect 2 "--objects rdm .* needs --objects-profile FILE" run --objects rdm -- "$threek"
expect 2 "needs --objects-profile" env UVMEMU_OBJECTS=glm LD_PRELOAD="$build/lib/libuvmemu.so" "$threek"
# A sweep varies --objects over one profile: with none the profile is unread, and said.
expect 0 "^uvmemu: note: --objects-profile x is not read: --objects is none$" \
	run --objects-profile x -- "$threek"
expect 2 "--objects='best': accepted values are none\|copy\|prefetch\|host\|lru\|rlm\|glm\|rdm" run --objects best -- "$threek"
expect 2 "--density-threshold" run --density-threshold 2 -- "$threek"
expect 2 "--objects-profile $dir/none: No such file" run --objects rdm --objects-profile "$dir/none" -- "$threek"
printf 'uvmemu-objects 1\nobject 0 10 a\nlaunch 0 k\nuse 0 0 5 0 0.5 oops\n' >"$dir/bad"
expect 2 "--objects-profile $dir/bad:4: object 0: reuse 'oops'" run --objects lru --objects-profile "$dir/bad" -- "$threek"

prof --out "$dir/objuse.prof" -- "$objuse" >/dev/null 2>&1 || { echo "FAIL: profiling objuse"; fails=$((fails + 1)); }
expect 2 "launch 0 is kernel 'one' in this run but 'gather' in the profile" \
	run --objects rdm --objects-profile "$dir/objuse.prof" -- "$threek"

expect 2 "--out FILE is required" prof -- "$threek"
expect 2 "--prefetch tree: a profile runs with --prefetch none" prof --out "$dir/p" --prefetch tree -- "$threek"
expect 2 "--oversub 1.5: a profile runs with --oversub 0" prof --out "$dir/p" --oversub 1.5 -- "$threek"
expect 1 "false exited with status 1; no profile written" prof --out "$dir/p" -- false
[ ! -e "$dir/p" ] || { echo "FAIL: a failed run left a profile"; fails=$((fails + 1)); }
[ $fails -eq 0 ]
