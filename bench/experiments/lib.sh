# bench/experiments/lib.sh - what every experiment's `run` script shares:
# its options, running its matrix through bench/sweep, and reading the
# results back as JSON for its table. Sourced, not run.
#
#   run [--full] [--out DIR] [--build DIR] [--jobs N] [--repeat N] [--table-only]
#
# --full runs matrix.full (sizes closer to the paper's; long) instead of
# matrix; --repeat overrides the matrix's repeat count; --table-only makes
# the table again from the results already in DIR, running nothing. Results go to DIR
# (default bench-out/EXPERIMENT under the current directory). Runs are
# timed one at a time (--jobs 1) unless asked otherwise: this is a 2-core
# machine and concurrent runs would measure each other.
# shellcheck shell=bash

exp_dir=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
exp_name=$(basename "$exp_dir")
exp_src=$(cd "$exp_dir/../../.." && pwd)
exp_build=${UVMEMU_BUILD:-$exp_src/build}
exp_full=0
exp_out=
exp_jobs=1
exp_repeat=
exp_table_only=0

exp_die() { echo "$exp_name: $*" >&2; exit 2; }

exp_init() {
	while [ $# -gt 0 ]; do
		case $1 in
		--full) exp_full=1; shift ;;
		--out) [ $# -ge 2 ] || exp_die "--out needs a directory"; exp_out=$2; shift 2 ;;
		--build) [ $# -ge 2 ] || exp_die "--build needs a directory"; exp_build=$2; shift 2 ;;
		--jobs) [ $# -ge 2 ] || exp_die "--jobs needs a number"; exp_jobs=$2; shift 2 ;;
		--repeat) [ $# -ge 2 ] || exp_die "--repeat needs a number"; exp_repeat=$2; shift 2 ;;
		--table-only) exp_table_only=1; shift ;;
		-h|--help) sed -n '2,/^set -eu/p' "$exp_dir/run" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) exp_die "unknown option '$1' (--full, --out DIR, --build DIR, --jobs N, --repeat N, --table-only)" ;;
		esac
	done
	exp_build=$(cd "$exp_build" 2>/dev/null && pwd) || exp_die "no build directory (--build DIR)"
	[ -n "$exp_out" ] || exp_out=bench-out/$exp_name
	mkdir -p "$exp_out"
	exp_out=$(cd "$exp_out" && pwd)
	command -v jq >/dev/null || exp_die "needs jq (apt-get install jq)"
}

# Runs the experiment's matrix (or matrix.full) through bench/sweep. A run
# that fails stays in the results with its status; the table is still made,
# and exp_done returns the sweep's status at the end. {out} in the matrix is
# the results directory (files a run script made before the sweep); a run
# script that defines exp_matrix_hook gets the results directory's copy of
# the matrix to adjust before it runs (exp_matrix_hook FILE).
exp_sweep_status=0
exp_sweep() {
	local matrix=$exp_dir/matrix
	if [ "$exp_table_only" = 1 ]; then
		[ -f "$exp_out/runs.txt" ] || exp_die "$exp_out has no results to tabulate (run without --table-only first)"
		exp_seconds=$(cat "$exp_out/seconds.txt" 2>/dev/null || echo '?')
		return 0
	fi
	[ "$exp_full" = 0 ] || matrix=$exp_dir/matrix.full
	if [ -n "$exp_repeat" ]; then
		sed "s/^repeat:.*/repeat: $exp_repeat/" "$matrix" >"$exp_out/matrix"
		grep -q '^repeat:' "$exp_out/matrix" || echo "repeat: $exp_repeat" >>"$exp_out/matrix"
	else
		cp "$matrix" "$exp_out/matrix"
	fi
	sed -i "s|{out}|$exp_out|g" "$exp_out/matrix"
	if declare -F exp_matrix_hook >/dev/null; then exp_matrix_hook "$exp_out/matrix"; fi
	SECONDS=0
	"$exp_src/bench/sweep" "$exp_out/matrix" --build "$exp_build" --out "$exp_out" \
		--jobs "$exp_jobs" || exp_sweep_status=$?
	exp_seconds=$SECONDS
	echo "$exp_seconds" >"$exp_out/seconds.txt"
}

# Every run as one JSON object: the sweep's parameters, its status, and the
# report's fields (an empty report when it has none), in one array.
exp_rows() {
	local run st
	while IFS= read -r run; do
		st=passed
		[ -f "$exp_out/runs/$run.rc" ] && [ "$(cat "$exp_out/runs/$run.rc")" = 0 ] || st=failed
		if jq -e . "$exp_out/runs/$run.json" >/dev/null 2>&1; then
			jq -c --arg st "$st" --slurpfile p "$exp_out/runs/$run.params.json" \
				'$p[0] + {exit: $st, r: .}' "$exp_out/runs/$run.json"
		else
			jq -c --arg st "$st" '. + {exit: $st, r: {}}' "$exp_out/runs/$run.params.json"
		fi
	done <"$exp_out/runs.txt" | jq -s .
}

# jq helpers for the tables, prepended to each experiment's filter:
#   best(f)     the smallest f over a group's passing runs (the repeats)
#   fmt(x; n)   x with n decimals, "-" when null
#   ok          the run exited 0 and verified
exp_jq_lib='
def ok: .exit == "passed" and .r.verify == "pass";
def best(f): map(select(ok) | f) | min;
def fmt(x; n): if x == null then "-" else (x * pow(10; n) | round) / pow(10; n) | tostring end;
def ratio(a; b): if a == null or b == null or b == 0 then null else a / b end;
'

# Writes the table (markdown, from the jq filter in $1 over exp_rows; more
# jq arguments may follow) to DIR/table.md and prints it with how long the
# experiment took.
exp_table() {
	local rows filter=$1
	shift
	rows=$(exp_rows)
	printf '%s\n' "$rows" >"$exp_out/rows.json"
	{
		printf '%s\n' "$rows" | jq -r "$@" "$exp_jq_lib $filter"
		echo
		echo "runs: $(jq length <<<"$rows"), passing: $(jq '[.[] | select(.exit == "passed" and .r.verify == "pass")] | length' <<<"$rows"); experiment time ${exp_seconds:-?} s; $(date -u '+%Y-%m-%d %H:%M UTC'); dilation $(jq -r '[.[].r.model.dilation // empty] | unique | map(tostring) | join(", ")' <<<"$rows"); model overruns (batches whose real cost exceeded the model) $(jq '[.[].r.model_overruns // 0] | add' <<<"$rows") of $(jq '[.[].r.batches // 0] | add' <<<"$rows") batches"
	} | tee "$exp_out/table.md"
}

exp_done() {
	[ "$exp_sweep_status" = 0 ] || echo "$exp_name: some runs failed or did not verify (see $exp_out/results.csv)" >&2
	return "$exp_sweep_status"
}
