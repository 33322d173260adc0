#!/usr/bin/env bash
# Description: small configuration errors are one line and status 2 before
# the program runs, natively and emulated: --dilation 0 (which used to mean
# auto silently) like -1, naming the accepted values; a --report path that
# cannot be written (which used to be noticed only at exit, with status 0),
# as --trace does; --host-mem malformed. Issue 11, defect 5.
set -u
build=$1
probe=$build/tests/bin/probe
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib.sh"

native() { env UVMEMU_SUMMARY=off "$@" "$probe" --footprint 4; }

expect 2 "--dilation='0': must be between 1 and 1000000, or auto" run --dilation 0
expect 2 "--dilation='-1': must be between 1 and 1000000, or auto" run --dilation -1
expect 2 "UVMEMU_DILATION='0': must be between 1 and 1000000, or auto" native UVMEMU_DILATION=0
expect 2 "--report $dir/no/such/dir/r.json: cannot write the report: No such file or directory" run --report "$dir/no/such/dir/r.json"
expect 2 "--report $dir: cannot write the report: Is a directory" run --report "$dir"
expect 2 "--report $dir/no/r.json: cannot write the report" native UVMEMU_REPORT="$dir/no/r.json"
expect 2 "--host-mem='lots': expected a size" run --host-mem lots

# A writable report path is left alone until the end: no file from the check.
run --report "$dir/r.json" --dilation auto >/dev/null 2>&1 || { echo "FAIL: a good run failed"; fails=$((fails + 1)); }
[ -s "$dir/r.json" ] || { echo "FAIL: no report written"; fails=$((fails + 1)); }

[ $fails -eq 0 ] || exit 1
