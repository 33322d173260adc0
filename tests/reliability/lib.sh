# lib.sh - what the reliability scripts share (sourced, not run).
fails=0

# run OPTIONS...: the probe under `uvmemu run` (a script sets $build and
# $probe before sourcing this; one that runs something else defines its own).
run() { "$build/bin/uvmemu" run --summary off "$@" -- "$probe" --footprint 4; }

# expect CODE REGEX COMMAND...: exit status CODE and exactly one stderr line
# matching REGEX.
expect() {
	local code=$1 re=$2 err rc
	shift 2
	err=$("$@" 2>&1 >/dev/null); rc=$?
	expect_output "$*" "$code" "$re" "$err" "$rc"
}

# expect_output NAME CODE REGEX STDERR RC: the same for a command already run.
expect_output() {
	local name=$1 code=$2 re=$3 err=$4 rc=$5
	if [ "$rc" -ne "$code" ] || ! grep -Eq -- "$re" <<<"$err" || [ "$(grep -c . <<<"$err")" -ne 1 ]; then
		echo "FAIL: $name -> exit $rc (want $code), stderr:"; printf '%s\n' "$err" | sed 's/^/    /'
		echo "    wanted one line matching: $re"
		fails=$((fails + 1))
	else
		echo "ok: $name -> $rc: $err"
	fi
}

# field FILE KEY: a top-level field of a JSON report (strings bare).
if command -v jq >/dev/null; then
	field() { jq -r ".$2 | tostring" "$1"; }
elif command -v python3 >/dev/null; then
	field() {
		python3 -c 'import json, sys; v = json.load(open(sys.argv[1])).get(sys.argv[2]); print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
	}
else
	echo "SKIP: neither jq nor python3 to read JSON reports"; exit 77
fi
