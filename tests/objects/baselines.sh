#!/usr/bin/env bash
# Description: the SC'19 paper's two baselines (Sec. 2.3), --objects copy
# (explicit copies) and --objects prefetch (UM_PF), move what the paper says
# they move. threek, which fits: both take no GPU fault (every object is on
# the device before its launch); copy moves each launch's objects in whole
# at every launch (x and y, z and x, y and x, x and y: 24 + 21 + 24 + 24 = 93
# blocks host to device) and copies out everything earlier launches copied
# in (69 blocks) before the host reads x and y back (24): 93 device to host;
# prefetch moves each object once (x 16, y 8, z 5: 29 blocks), and the host
# reads all 29 back. backprop at 2x oversubscription, where a launch's
# objects can exceed device memory: both verify, and the report counts the
# launches whose objects' footprint (64 KB blocks) exceeds the capacity the
# manager planned with, as the profile gives them.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
uvmemu=$build/bin/uvmemu
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# num KEY FILE: the number after "KEY": in a JSON report.
# shellcheck source=../report_num.sh
. "$(dirname "$0")/../report_num.sh"

# run SCHEME PROFILE REPORT [OPTIONS...] -- PROGRAM...: one run that must verify.
run() {
	local s=$1 p=$2 r=$3
	shift 3
	"$uvmemu" run --objects "$s" --objects-profile "$p" --summary off --report "$r" "$@" \
		>"$dir/out" 2>&1 || { fail "--objects $s exited non-zero"; cat "$dir/out"; return 1; }
	grep -q '"verify": "pass"' "$r" || { fail "--objects $s: verify is not pass"; return 1; }
	grep -q "\"objects\": \"$s\"" "$r" || { fail "the report does not name $s"; return 1; }
}

# expect SCHEME REPORT KEY VALUE
expect() {
	local got
	got=$(num "$3" "$2")
	if [ "$got" != "$4" ]; then
		fail "--objects $1: $3 is '$got', want $4"
	else
		echo "ok: --objects $1: $3 $got"
	fi
}

"$uvmemu" profile --out "$dir/threek.prof" --summary off -- "$build/tests/bin/threek" \
	>/dev/null 2>&1 || { echo "FAIL: uvmemu profile threek"; exit 1; }
for s in copy prefetch; do
	run $s "$dir/threek.prof" "$dir/$s.json" -- "$build/tests/bin/threek" || continue
	expect $s "$dir/$s.json" gpu_faults 0
	expect $s "$dir/$s.json" launches_over_capacity 0
done
expect copy "$dir/copy.json" blocks_h2d 93
expect copy "$dir/copy.json" blocks_d2h 93
expect prefetch "$dir/prefetch.json" blocks_h2d 29
expect prefetch "$dir/prefetch.json" blocks_d2h 29

if [ -x "$build/bin/backprop" ]; then
	bp=("$build/bin/backprop" --footprint 8M --quiet)
	"$uvmemu" profile --out "$dir/bp.prof" --summary off -- "${bp[@]}" >/dev/null 2>&1 ||
		{ echo "FAIL: uvmemu profile backprop"; exit 1; }
	for s in copy prefetch; do
		run $s "$dir/bp.prof" "$dir/bp-$s.json" --oversub 2 -- "${bp[@]}" || continue
		cap=$(num capacity_bytes "$dir/bp-$s.json")
		want=$(awk -v cap="$cap" '
			$1 == "object" { size[$2] = $3 }
			$1 == "launch" { n++ }
			$1 == "use" { fp[$2] += int((size[$3] + 65535) / 65536) * 65536 }
			END { for (l in fp) over += fp[l] > cap; print over + 0 }' "$dir/bp.prof")
		[ "$want" -gt 0 ] || fail "backprop at 2x: no launch exceeds $cap bytes; the test tests nothing"
		expect $s "$dir/bp-$s.json" launches_over_capacity "$want"
	done
else
	echo "skip: backprop is not built"
fi
[ $fails -eq 0 ]
