#!/usr/bin/env bash
# Description: a calibration file is not trusted blindly: a bandwidth that is
# not a finite number > 0 (inf, nan), or one that would make the dilation
# larger than --dilation accepts (1e-300), is refused with one warning line
# and the run measures instead, with a finite dilation; with no private cache
# directory ($HOME and $XDG_CACHE_HOME unset, or a directory every user may
# write to, where another user could plant a file) no file is read or
# written: the run says so and calibrates in memory, and `uvmemu calibrate`
# asks for --out. Issue 35, defect 6: 1e-300 gave "dilation inf" and a
# report with a null dilation, and the cache fell back to /tmp.
set -u
build=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
# shellcheck source=../expect_error.sh
. "$src/tests/expect_error.sh"
command -v jq >/dev/null || { echo "SKIP: jq reads the report"; exit 77; }
uvmemu=$build/bin/uvmemu
vecadd=("$build/bin/vecadd" --footprint 4M --quiet)

# A run at --dilation auto: its report's dilation and calibration source.
auto() { # REPORT [run options...]
	local report=$1
	shift
	"$uvmemu" run --dilation auto --summary off --report "$report" "$@" -- "${vecadd[@]}" >/dev/null
}
model() { jq -r ".model.$2" "$1"; }

"$uvmemu" calibrate --runs 1 --out "$dir/cal" >/dev/null || { echo "FAIL: uvmemu calibrate"; exit 1; }
bad() { sed -E "s/^bytes_per_s = .*/bytes_per_s = $1/" "$dir/cal" >"$dir/$2"; }
bad 1e-300 tiny
bad inf inf
bad nan nan

check() { # FILE SOURCE-PATTERN STDERR-PATTERN
	local err
	err=$(auto "$dir/$1.json" --calibration "$dir/$1" 2>&1); rc=$?
	if [ $rc -ne 0 ] || [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ] || ! grep -Eq -- "$3" <<<"$err"; then
		echo "FAIL: --calibration $1: exit $rc, stderr:"; printf '%s\n' "$err"; fails=$((fails + 1)); return
	fi
	if ! jq -e '.model.dilation | type == "number" and . >= 1 and . <= 1000000' "$dir/$1.json" >/dev/null ||
		! grep -Eq -- "$2" <<<"$(model "$dir/$1.json" calibration_source)"; then
		echo "FAIL: --calibration $1: dilation $(model "$dir/$1.json" dilation), source $(model "$dir/$1.json" calibration_source)"
		fails=$((fails + 1)); return
	fi
	echo "ok: --calibration $1: dilation $(model "$dir/$1.json" dilation); $err"
}
check tiny "^measured in this run: $dir/tiny: bytes_per_s = 1e-300 makes the dilation inf, above --dilation's 1000000" \
	"^uvmemu: warning: --dilation auto: $dir/tiny: bytes_per_s = 1e-300 makes the dilation inf"
check inf "^measured in this run: $dir/inf:[0-9]+: bytes_per_s = 'inf': not a finite number > 0" \
	"^uvmemu: warning: --dilation auto: $dir/inf:[0-9]+: bytes_per_s = 'inf'"
check nan "^measured in this run: $dir/nan:[0-9]+: bytes_per_s = 'nan': not a finite number > 0" \
	"^uvmemu: warning: --dilation auto: $dir/nan:[0-9]+: bytes_per_s = 'nan'"

# No private cache directory: nothing read, nothing written, and said.
err=$(env -u HOME -u XDG_CACHE_HOME "$uvmemu" run --dilation auto --summary off \
	--report "$dir/nohome.json" -- "${vecadd[@]}" 2>&1 >/dev/null)
case $(model "$dir/nohome.json" calibration_source) in
"measured in this run: no private cache directory: \$XDG_CACHE_HOME and \$HOME are unset")
	echo "ok: no HOME: $err" ;;
*) echo "FAIL: no HOME: source $(model "$dir/nohome.json" calibration_source); $err"; fails=$((fails + 1)) ;;
esac
expect 2 "^uvmemu calibrate: no private cache directory: .* give --out FILE" \
	env -u HOME -u XDG_CACHE_HOME "$uvmemu" calibrate --runs 1

# A cache another user could write to: a file planted there is not read,
# however well it matches this machine and build.
mkdir -p "$dir/shared/.cache/uvmemu"
chmod 1777 "$dir/shared"
sed -E 's/^bytes_per_s = .*/bytes_per_s = 1e9/' "$dir/cal" >"$dir/shared/.cache/uvmemu/calibration"
HOME=$dir/shared auto "$dir/shared.json" 2>"$dir/shared.err"
case $(model "$dir/shared.json" calibration_source) in
"measured in this run: \$HOME ($dir/shared) is writable by every user")
	echo "ok: a world-writable HOME: $(cat "$dir/shared.err")" ;;
*) echo "FAIL: world-writable HOME: source $(model "$dir/shared.json" calibration_source)"
	fails=$((fails + 1)) ;;
esac
HOME=$dir/shared "$uvmemu" calibrate --runs 1 >/dev/null 2>&1
cmp -s "$dir/shared/.cache/uvmemu/calibration" <(sed -E 's/^bytes_per_s = .*/bytes_per_s = 1e9/' "$dir/cal") ||
	{ echo "FAIL: uvmemu calibrate wrote into a world-writable HOME"; fails=$((fails + 1)); }
exit $((fails > 0))
