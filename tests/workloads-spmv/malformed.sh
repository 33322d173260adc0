#!/usr/bin/env bash
# Description: spmv's Matrix Market reader rejects malformed and unsupported
# files with exactly one line on stderr, "spmv: FILE:LINE: ...", and exit
# status 2; well-formed files of each supported kind are accepted, verify,
# and give y = A x for a matrix small enough to check by hand (so the test
# can tell apart a reader that rejects everything, or reads wrongly).
# usage: malformed.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
bin=$build/bin/spmv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# The runtime's end-of-run summary also goes to stderr; this test is about the
# workload's own message.
export UVMEMU_SUMMARY=off
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

# reject NAME LINE CONTENT [WORDS]: the file NAME holding CONTENT (printf
# escapes) must be rejected with one line naming NAME and LINE (and
# containing WORDS when given).
reject() {
	local f=$tmp/$1 line=$2 words=${4:-} err rc n
	printf "$3" >"$f"
	err=$("$bin" --input "$f" --quiet 2>&1 >/dev/null); rc=$?
	n=$(printf '%s\n' "$err" | wc -l)
	if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || [[ "$err" != "spmv: $f:$line: "* ]] ||
		[[ -n "$words" && "$err" != *"$words"* ]]; then
		echo "FAIL: $1: exit $rc, $n line(s), want exit 2 and one line 'spmv: $f:$line: ...${words:+ $words ...}':"
		echo "$err"
		fail=1
	else
		echo "ok: $err"
	fi
}

# accept NAME CONTENT [Y...]: the file must be read and verify; with Y values
# given, --output's y section must hold them (to 6 significant digits).
accept() {
	local f=$tmp/$1 content=$2 out rc got
	shift 2
	printf "$content" >"$f"
	out=$("$bin" --input "$f" --quiet --output "$tmp/out" 2>&1); rc=$?
	if [ $rc -ne 0 ] || ! grep -q "^spmv: verify pass" <<<"$out"; then
		echo "FAIL: spmv rejected the well-formed $(basename "$f") (exit $rc):"
		echo "$out"
		fail=1
		return
	fi
	if [ $# -gt 0 ]; then
		got=$(awk '/^# section y/ { on = 1; next } /^#/ { on = 0 } on { printf "%s%.6g", sep, $1; sep = " " }' "$tmp/out")
		if [ "$got" != "$*" ]; then
			echo "FAIL: $(basename "$f"): y = $got, want $*"
			fail=1
			return
		fi
	fi
	echo "ok: spmv accepts $(basename "$f")${1:+, y = $*}"
}

# x is drawn from the seed; the checks below need it known, so they read it
# from the output of a run on a 3 x 3 matrix and compute y = A x here.
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 0\n' >"$tmp/zero.mtx"
"$bin" --input "$tmp/zero.mtx" --quiet --output "$tmp/x" >/dev/null 2>&1 ||
	{ echo "FAIL: an all-zero 3 x 3 matrix was rejected"; exit 1; }
read -r x1 x2 x3 < <(awk '/^# section x/ { on = 1; next } /^#/ { on = 0 } on { printf "%s ", $1 }' "$tmp/x")
[ -n "$x3" ] || { echo "FAIL: no x in the output of the 3 x 3 run"; exit 1; }
# y EXPR: EXPR (an awk expression in x1, x2, x3) as the output prints it.
y() { awk -v x1="$x1" -v x2="$x2" -v x3="$x3" "BEGIN { printf \"%.6g\", $1 }"; }
yv() { local s= v; for v in "$@"; do s="$s${s:+ }$(y "$v")"; done; printf '%s' "$s"; }

# [[2 0 1] [0 0 0] [4 0 3]], general real, with comments and a CRLF line end.
accept general.mtx '%%%%MatrixMarket matrix coordinate real general\n%% a comment\n\n3 3 4\r\n1 1 2.0\n3 3 3e0\n1 3 1\n3 1 4\n' \
	$(yv "2*x1+x2*0+1*x3" "0" "4*x1+3*x3")
# Symmetric pattern: (2,1) mirrored to (1,2); the diagonal (3,3) once.
accept symmetric.mtx '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n' \
	$(yv "x2" "x1" "x3")
# Integer field; upper-case banner words (the format is case-insensitive).
accept integer.mtx '%%%%MatrixMarket MATRIX Coordinate INTEGER General\n3 3 2\n2 2 -7\n1 2 5\n' \
	$(yv "5*x2" "-7*x2" "0")

reject empty.mtx 1 '' 'empty file'
reject banner.mtx 1 'MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n' 'not a Matrix Market file'
reject short-banner.mtx 1 '%%%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n' 'banner needs 4 words'
reject array.mtx 1 '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n' 'array'
reject complex.mtx 1 '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n' 'complex'
reject hermitian.mtx 1 '%%%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n' 'hermitian'
reject skew.mtx 1 '%%%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n' 'skew-symmetric'
reject vector.mtx 1 '%%%%MatrixMarket vector coordinate real general\n1 1 1\n1 1 1\n' 'vector'
reject nosize.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n%% only comments\n' 'before the size line'
reject size-words.mtx 2 '%%%%MatrixMarket matrix coordinate real general\n3 3\n1 1 1\n' 'size line'
reject size-nan.mtx 2 '%%%%MatrixMarket matrix coordinate real general\n3 x 1\n1 1 1\n' 'rows and columns'
reject size-zero.mtx 2 '%%%%MatrixMarket matrix coordinate real general\n0 3 0\n' 'rows and columns'
reject nonsquare.mtx 2 '%%%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n' 'square'
reject row-range.mtx 4 '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n4 1 1\n' 'row'
reject col-zero.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 0 1\n' 'column'
reject value-word.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 abc\n' 'value'
reject value-nan.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 nan\n' 'value'
reject value-huge.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1e300\n' 'float'
reject value-missing.mtx 4 '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2\n' 'row column value'
reject value-extra.mtx 3 '%%%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n' 'row column'
reject integer-frac.mtx 3 '%%%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n' 'integer'
reject too-many.mtx 5 '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 1\n3 3 1\n' 'more entries'
reject truncated.mtx 5 '%%%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 1\n' 'ends after 2 of the 4'
reject cut-mid-line.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1' 'row column value'
reject nul.mtx 3 '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 \0001\n' 'NUL'

# Not a file at all: one line naming it, exit 2.
err=$("$bin" --input "$tmp/missing.mtx" --quiet 2>&1 >/dev/null); rc=$?
if [ $rc -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ "$err" != *missing.mtx* ]]; then
	echo "FAIL: a missing file: exit $rc: $err"; fail=1
else
	echo "ok: $err"
fi
exit $fail
