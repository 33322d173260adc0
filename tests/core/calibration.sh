#!/usr/bin/env bash
# Description: `uvmemu calibrate` measures the executor in fresh processes and
# saves the median with the machine and the executor's build; a run at
# --dilation auto reads it, takes D = target / saved bandwidth exactly and
# names the file in its report; a file for another build, or a file that is
# not a calibration, is not used and the report says why; bad arguments get
# one line and exit 2.
set -u
build=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
# shellcheck source=../expect_error.sh
. "$src/tests/expect_error.sh"
uvmemu=$build/bin/uvmemu
run() { # REPORT CALIBRATION
	"$uvmemu" run --dilation auto --calibration "$2" --report "$1" --summary off \
		-- "$build/bin/vecadd" --footprint 4M --quiet >/dev/null 2>&1
}
# A JSON value on its own line: a string (commas allowed) or a number.
field() { sed -nE -e "s/^ *\"$2\": \"(.*)\",?$/\1/p" -e "s/^ *\"$2\": ([^\",]+),?$/\1/p" "$1" | tail -1; }

if ! "$uvmemu" calibrate --runs 3 --out "$dir/cal" >"$dir/out"; then
	echo "FAIL: uvmemu calibrate failed"; cat "$dir/out"; exit 1
fi
cat "$dir/out"
key() { sed -nE "s/^$1 = (.*)$/\1/p" "$dir/cal"; }
[ "$(key runs)" = 3 ] || { echo "FAIL: runs = '$(key runs)', want 3"; fails=$((fails + 1)); }
bw=$(key bytes_per_s)
awk -v b="$bw" -v lo="$(key min_bytes_per_s)" -v hi="$(key max_bytes_per_s)" \
	'BEGIN { exit !(b > 0 && lo <= b && b <= hi) }' ||
	{ echo "FAIL: median $bw outside its range"; fails=$((fails + 1)); }
[ -n "$(key build)" ] && [ -n "$(key machine)" ] ||
	{ echo "FAIL: no build or machine saved"; fails=$((fails + 1)); }

# A run uses it: D = the preset's bandwidth over the saved one.
run "$dir/saved.json" "$dir/cal" || { echo "FAIL: the run at --dilation auto failed"; exit 1; }
src_=$(field "$dir/saved.json" calibration_source)
case $src_ in
"$dir/cal (median of 3 runs,"*) echo "ok: calibration_source: $src_" ;;
*) echo "FAIL: calibration_source '$src_'"; fails=$((fails + 1)) ;;
esac
d=$(field "$dir/saved.json" dilation | grep -E '^[0-9.e+-]+$')
t=$(field "$dir/saved.json" calibration_target_bytes_per_s)
if awk -v d="$d" -v t="$t" -v b="$bw" 'BEGIN { r = d / (t / b); exit !(r > 0.9999 && r < 1.0001) }'; then
	echo "ok: dilation $d = $t / $bw"
else
	echo "FAIL: dilation $d, want $t / $bw"; fails=$((fails + 1))
fi

# Another build's file is not used, and the report says why.
sed -E 's/^build = .*/build = Debug+other/' "$dir/cal" >"$dir/other"
run "$dir/other.json" "$dir/other"
case $(field "$dir/other.json" calibration_source) in
"measured in this run: $dir/other was measured with an executor built Debug+other"*)
	echo "ok: another build's figure is not used" ;;
*) echo "FAIL: other build: $(field "$dir/other.json" calibration_source)"; fails=$((fails + 1)) ;;
esac
echo "not a calibration" >"$dir/junk"
run "$dir/junk.json" "$dir/junk"
case $(field "$dir/junk.json" calibration_source) in
"measured in this run: $dir/junk:1: not a line of a calibration file"*) echo "ok: junk file named" ;;
*) echo "FAIL: junk: $(field "$dir/junk.json" calibration_source)"; fails=$((fails + 1)) ;;
esac

expect 2 "--runs '0': expected a whole number from 1 to 100" "$uvmemu" calibrate --runs 0
expect 2 "unknown option '--fast'" "$uvmemu" calibrate --fast
expect 2 "option '--out' needs a value" "$uvmemu" calibrate --out
exit $((fails > 0))
