# tests/expect_error.sh - sourced by script tests that check bad input:
#
#   expect CODE REGEX COMMAND...
#
# runs COMMAND and passes when it exits with CODE and writes exactly one
# line on stderr, matching the extended regular expression REGEX; prints
# "ok: ..." or "FAIL: ..." and counts failures in $fails.
# shellcheck shell=bash
fails=${fails:-0}

expect() {
	local code=$1 re=$2 err rc lines
	shift 2
	err=$("$@" 2>&1 >/dev/null); rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" -ne "$code" ] || ! grep -Eq -- "$re" <<<"$err" || [ "$lines" -ne 1 ]; then
		echo "FAIL: $* -> exit $rc (want $code), stderr:"; printf '%s\n' "$err" | sed 's/^/    /'
		echo "    wanted one line matching: $re"
		fails=$((fails + 1))
	else
		echo "ok: $* -> $rc: $err"
	fi
}
