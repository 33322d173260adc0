#!/usr/bin/env bash
# Description: ra --update-only runs the update kernel alone (one kernel in
# the report, two without the flag) and still verifies the table word for
# word, natively and emulated.
# usage: ra-update-only.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
# shellcheck source=../report_num.sh
. "$2/tests/report_num.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--footprint 2M --updates 8192 --quiet)

"$build/bin/ra" "${args[@]}" --update-only >"$tmp/native.txt" 2>&1 ||
	{ cat "$tmp/native.txt"; echo "FAIL: native --update-only"; exit 1; }
grep -q "verify pass" "$tmp/native.txt" || { echo "FAIL: no verdict natively"; exit 1; }
for flag in --update-only ""; do
	# shellcheck disable=SC2086 # an empty flag is no word
	"$build/bin/uvmemu" run --report "$tmp/r.json" -- "$build/bin/ra" "${args[@]}" $flag \
		>"$tmp/emu.txt" 2>&1 || { cat "$tmp/emu.txt"; echo "FAIL: emulated ra $flag"; exit 1; }
	kernels=$(num kernels "$tmp/r.json")
	want=2
	[ -n "$flag" ] && want=1
	if [ "$kernels" != "$want" ]; then
		echo "FAIL: ra $flag ran $kernels kernels, expected $want"
		exit 1
	fi
	echo "ok: ra $flag: $kernels kernels, verified"
done
