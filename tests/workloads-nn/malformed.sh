#!/usr/bin/env bash
# Description: nn's reader of Rodinia's fixed-width hurricane records rejects
# malformed files with exactly one line on stderr, "nn: FILE:LINE: ...", and
# exit status 2; well-formed files (with and without a final newline) are
# read and verify, so the check can tell apart a reader that rejects
# everything.
# usage: malformed.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
bin=$build/bin/nn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
export UVMEMU_SUMMARY=off
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

# Two well-formed records (48 characters each).
r1='1992  3 22  0  7 ALBERTO    66.5  79.2  129  899'
r2='1963  3 18 18  8 HELENE      7.4 342.9  131  783'

# reject NAME LINE CONTENT: the file NAME holding CONTENT (printf escapes)
# must be rejected with one line naming NAME and LINE.
reject() {
	local f=$tmp/$1 line=$2 err rc n
	printf "$3" >"$f"
	err=$("$bin" --input "$f" --quiet 2>&1 >/dev/null); rc=$?
	n=$(printf '%s\n' "$err" | wc -l)
	if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || [[ "$err" != "nn: $f:$line: "* ]]; then
		echo "FAIL: $1: exit $rc, $n line(s), want exit 2 and one line 'nn: $f:$line: ...':"
		echo "$err"
		fail=1
	else
		echo "ok: $err"
	fi
}

accept() {
	local f=$tmp/$1 out rc
	printf "$2" >"$f"
	out=$("$bin" --input "$f" --quiet 2>&1); rc=$?
	if [ $rc -ne 0 ] || ! grep -q "^nn: verify pass" <<<"$out"; then
		echo "FAIL: nn rejected the well-formed $1 (exit $rc):"
		echo "$out"
		fail=1
	else
		echo "ok: nn accepts $1"
	fi
}

accept ok.db "$r1\n$r2\n"
accept nonewline.db "$r1\n$r2"
reject empty.db 1 ''
reject short.db 2 "$r1\n${r1:0:47}\n"
reject long.db 1 "$r1 \n$r2\n"
reject crlf.db 1 "$r1\r\n$r2\r\n"
reject blankline.db 2 "$r1\n\n$r2\n"
reject lat.db 2 "$r1\n${r2:0:27}  x.4${r2:32}\n"
reject latrange.db 1 "${r1:0:27} 96.5${r1:32}\n"
reject latdigits.db 1 "${r1:0:27}66.55${r1:32}\n"
reject lng.db 2 "$r1\n${r2:0:32}  34-.9${r2:38}\n"
reject lngrange.db 1 "${r1:0:32} 379.2${r1:38}\n"
reject month.db 1 "1992 13${r1:7}\n"
reject year.db 2 "$r1\n19x3${r2:4}\n"
reject hour.db 1 "${r1:0:10} 24${r1:13}\n"
reject wind.db 1 "${r1:0:38}  -12${r1:43}\n"
reject pressure.db 2 "$r1\n${r2:0:43}  7 3\n"
reject name.db 1 "${r1:0:16}           ${r1:27}\n"
reject nul.db 1 "${r1:0:20}\0${r1:21}\n"

# A missing file: one line naming it, exit 2.
err=$("$bin" --input "$tmp/missing.db" --quiet 2>&1 >/dev/null); rc=$?
if [ $rc -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ "$err" != "nn: $tmp/missing.db: "* ]]; then
	echo "FAIL: missing file: exit $rc: $err"; fail=1
else
	echo "ok: $err"
fi
exit $fail
