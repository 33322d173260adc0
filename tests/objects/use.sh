#!/usr/bin/env bash
# Description: object use per launch is exact. objuse's first launch receives
# allocations 0, 1 (through a pointer into its middle), 2 and 6 as arguments
# and reaches 3 and 4 (and 0 again) through a pointer table read with
# EMU_DEV; its second receives 6 only. kernels.csv must list exactly
# "0 1 2 6" / "3 4" and "6" / "" (arg_allocs / dev_allocs); the program
# verifies emulated and natively.
set -u
build=$1
prog=$build/tests/bin/objuse
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$prog" >/dev/null || { echo "FAIL: objuse does not verify natively"; exit 1; }
"$build/bin/uvmemu" run --trace "$dir/t" --summary off -- "$prog" || {
	echo "FAIL: objuse failed emulated"; exit 1; }
fails=0
expect() { # LAUNCH ARG_ALLOCS DEV_ALLOCS
	local got
	got=$(awk -F, -v l="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["launch"] == l { print $c["kernel"] "|" $c["arg_allocs"] "|" $c["dev_allocs"] }' \
		"$dir/t/kernels.csv")
	if [ "$got" != "$2|$3|$4" ]; then
		echo "FAIL: launch $1: kernels.csv says '$got', want '$2|$3|$4'"; fails=$((fails + 1))
	else
		echo "ok: launch $1: $got"
	fi
}
expect 0 gather "0 1 2 6" "3 4"
expect 1 scale "6" ""
[ "$(wc -l <"$dir/t/kernels.csv")" -eq 3 ] || { echo "FAIL: not two launches"; fails=$((fails + 1)); }
[ $fails -eq 0 ]
