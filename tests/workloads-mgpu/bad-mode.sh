#!/usr/bin/env bash
# Description: an unknown --mode, or --mode without a value, is one line on
# stderr naming the option and exit status 2, for both two-GPU workloads.
set -u
build=$1
rc=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for name in mgpu-stream mgpu-sgemm; do
	for bad in "--mode sideways" "--mode"; do
		"$build/bin/$name" $bad >/dev/null 2>"$tmp"
		status=$?
		err=$(cat "$tmp")
		echo "$name $bad: exit $status: $err"
		[ $status -eq 2 ] || { echo "FAIL: exit $status, expected 2"; rc=1; }
		[ "$(wc -l <<<"$err")" -eq 1 ] && grep -q -- "--mode" <<<"$err" ||
			{ echo "FAIL: expected one line naming --mode"; rc=1; }
	done
done
exit $rc
