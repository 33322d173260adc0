#!/usr/bin/env bash
# Description: the graph readers reject malformed input files with exactly one
# line on stderr, "WORKLOAD: FILE:LINE: ...", and exit status 2; a well-formed
# file of each format is accepted and verifies (so the check can tell apart a
# reader that rejects everything).
# usage: malformed.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# The runtime's end-of-run summary also goes to stderr; this test is about the
# workload's own message.
export UVMEMU_SUMMARY=off

# reject WORKLOAD NAME LINE CONTENT: the file NAME holding CONTENT (printf
# escapes) must be rejected with a message naming NAME and LINE.
reject() {
	local wl=$1 f=$tmp/$2 line=$3
	printf "$4" >"$f"
	check_reject "$wl" "$f" "$line"
}

check_reject() {
	local wl=$1 f=$2 line=$3 err rc n
	err=$("$build/bin/$wl" --input "$f" --quiet 2>&1 >/dev/null); rc=$?
	n=$(printf '%s\n' "$err" | wc -l)
	if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || [[ "$err" != "$wl: $f:"$line": "* ]]; then
		echo "FAIL: $wl on $f: exit $rc, $n line(s), want exit 2 and one line '$wl: $f:$line: ...':"
		echo "$err"
		fail=1
	else
		echo "ok: $err"
	fi
}

# accept WORKLOAD NAME [CONTENT]: the file NAME (written from CONTENT when
# given) must be read and verify.
accept() {
	local wl=$1 f=$tmp/$2 out rc
	[ $# -lt 3 ] || printf "$3" >"$f"
	out=$("$build/bin/$wl" --input "$f" --quiet 2>&1); rc=$?
	if [ $rc -ne 0 ] || ! grep -q "^$wl: verify pass" <<<"$out"; then
		echo "FAIL: $wl rejected the well-formed $2 (exit $rc):"
		echo "$out"
		fail=1
	else
		echo "ok: $wl accepts $2"
	fi
}

for wl in bfs sssp; do
	[ -x "$build/bin/$wl" ] || { echo "FAIL: $build/bin/$wl not built"; exit 1; }
	accept $wl ok.gr 'c tiny\np sp 3 3\na 1 2 5\na 2 3 1\na 1 3 9\n'
	accept $wl ok.pace 'p tw 3 2\n1 2\n2 3\n'
	accept $wl ok.txt '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 4\n2 4\n0 4\n'
	reject $wl range.gr 3 'p sp 3 2\na 1 2 5\na 2 4 1\n'
	reject $wl noproblem.gr 2 'c no problem line\na 1 2 5\n'
	reject $wl short.gr 3 'p sp 3 3\na 1 2 5\na 2 3 1\n'
	reject $wl extra.gr 2 'p sp 3 1\na 1 2 3 4\n'
	reject $wl weight.gr 2 'p sp 3 1\na 1 2 x\n'
	reject $wl pace.gr 3 'p tw 3 1\n1 2\n2 3\n'
	reject $wl kind.gr 1 'p xx 3 1\n'
	reject $wl empty.gr 1 ''
	reject $wl rodinia.txt 10 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n'
	reject $wl rodinia-dest.txt 11 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n9 1\n'
done

# xz-compressed input: a good stream is read, a truncated one fails in the
# decoder with the one-line message (any line number: where the data ended).
if command -v xz >/dev/null; then
	printf 'p tw 3 2\n1 2\n2 3\n' | xz >"$tmp/ok.gr.xz"
	accept bfs ok.gr.xz
	head -c 40 "$tmp/ok.gr.xz" >"$tmp/cut.gr.xz"
	check_reject bfs "$tmp/cut.gr.xz" "[0-9]*"
else
	echo "note: xz not installed, the compressed cases are not run"
fi
exit $fail
