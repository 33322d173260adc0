# lib.sh - helpers the graph reader tests share (sourced, not run).
# Expects $build (the build directory) and $tmp (a scratch directory); sets
# fail=1 on a failed check.
#
# The runtime's end-of-run summary is left on: an input error must be the
# run's only line even so (the workload tells the runtime to stay quiet).
fail=0

# check_reject WORKLOAD FILE LINE [PATTERN]: running WORKLOAD on FILE must exit
# 2 with exactly one line, "WORKLOAD: FILE:LINE: ..." (LINE a glob), that
# matches PATTERN (a grep -E regex) when given.
check_reject() {
	local wl=$1 f=$2 line=$3 pat=${4:-} err rc n
	err=$("$build/bin/$wl" --input "$f" --quiet 2>&1 >/dev/null); rc=$?
	n=$(printf '%s' "$err" | grep -c '')
	if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || [[ "$err" != "$wl: $f:"$line": "* ]] ||
		{ [ -n "$pat" ] && ! grep -Eq -- "$pat" <<<"$err"; }; then
		echo "FAIL: $wl on $f: exit $rc, $n line(s), want exit 2 and one line '$wl: $f:$line: ${pat:-...}':"
		echo "$err"
		fail=1
	else
		echo "ok: $err"
	fi
}

# reject WORKLOAD NAME LINE CONTENT [PATTERN]: the file NAME holding CONTENT
# (printf escapes) must be rejected naming NAME and LINE.
reject() {
	local wl=$1 f=$tmp/$2 line=$3
	printf -- "$4" >"$f"
	check_reject "$wl" "$f" "$line" "${5:-}"
}

# accept WORKLOAD NAME [CONTENT [ARGS...]]: the file NAME (written from CONTENT
# when given and not empty) must be read and verify.
accept() {
	local wl=$1 f=$tmp/$2 out rc
	[ $# -lt 3 ] || [ -z "$3" ] || printf -- "$3" >"$f"
	shift $(($# < 3 ? $# : 3))
	out=$("$build/bin/$wl" --input "$f" --quiet "$@" 2>&1); rc=$?
	if [ $rc -ne 0 ] || ! grep -q "^$wl: verify pass" <<<"$out"; then
		echo "FAIL: $wl rejected the well-formed ${f##*/} (exit $rc):"
		echo "$out"
		fail=1
	else
		echo "ok: $wl accepts ${f##*/} $*"
	fi
}

# usage_error WORKLOAD PATTERN ARGS...: the run must exit 2 with one line in
# all (stdout and stderr) matching PATTERN.
usage_error() {
	local wl=$1 pat=$2 out rc n
	shift 2
	out=$("$build/bin/$wl" "$@" 2>&1); rc=$?
	n=$(printf '%s' "$out" | grep -c '')
	if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || ! grep -Eq -- "$pat" <<<"$out"; then
		echo "FAIL: $wl $*: exit $rc, $n line(s), want exit 2 and one line matching '$pat':"
		echo "$out"
		fail=1
	else
		echo "ok: $out"
	fi
}
