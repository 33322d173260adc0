# bench/experiments/lib.sh - what every experiment's `run` script shares:
# its options, running its matrix through bench/sweep, and reading the
# results back as JSON for its table. Sourced, not run.
#
#   run [--full | --quick] [--out DIR] [--build DIR] [--jobs N] [--repeat N]
#       [--timeout SECONDS] [--set 'KEY: VALUE']... [--table-only]
#
# --full runs matrix.full (sizes closer to the paper's; long) instead of
# matrix; --quick runs matrix.quick (tiny sizes, seconds: what the smoke
# test tests/bench runs, to show the script and its table work; its
# figures mean nothing); --repeat overrides the matrix's repeat count; --table-only makes
# the table again from the results already in DIR, running nothing;
# --timeout stops a run after that many seconds (its status is then
# "timeout", and a table may use the limit as a bound on its time); --set
# replaces the matrix's KEY line with 'KEY: VALUE' for this sweep (e.g.
# --set 'workloads: cfd' --set 'oversub: 1.5 2': a slice of the matrix with
# its own --repeat or --timeout). Results go to DIR
# (default bench-out/EXPERIMENT under the current directory). Runs are
# timed one at a time (--jobs 1) unless asked otherwise: this is a 2-core
# machine and concurrent runs would measure each other.
# shellcheck shell=bash

exp_dir=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
exp_name=$(basename "$exp_dir")
exp_src=$(cd "$exp_dir/../../.." && pwd)
exp_build=${UVMEMU_BUILD:-$exp_src/build}
exp_full=0
exp_quick=0
exp_out=
exp_jobs=1
exp_repeat=
exp_table_only=0
exp_timeout=
exp_sets=()

exp_die() { echo "$exp_name: $*" >&2; exit 2; }

exp_init() {
	while [ $# -gt 0 ]; do
		case $1 in
		--full) exp_full=1; shift ;;
		--quick) exp_quick=1; shift ;;
		--out) [ $# -ge 2 ] || exp_die "--out needs a directory"; exp_out=$2; shift 2 ;;
		--build) [ $# -ge 2 ] || exp_die "--build needs a directory"; exp_build=$2; shift 2 ;;
		--jobs) [ $# -ge 2 ] || exp_die "--jobs needs a number"; exp_jobs=$2; shift 2 ;;
		--repeat) [ $# -ge 2 ] || exp_die "--repeat needs a number"; exp_repeat=$2; shift 2 ;;
		--timeout)
			{ [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]]; } || exp_die "--timeout needs a whole number of seconds"
			exp_timeout=$2; shift 2 ;;
		--set)
			{ [ $# -ge 2 ] && [[ $2 =~ ^[a-z][a-z0-9_.]*:\  ]]; } || exp_die "--set needs 'KEY: VALUE' (e.g. --set 'oversub: 1.5 2')"
			exp_sets+=("$2"); shift 2 ;;
		--table-only) exp_table_only=1; shift ;;
		-h|--help) sed -n '2,/^set -eu/p' "$exp_dir/run" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) exp_die "unknown option '$1' (--full, --quick, --out DIR, --build DIR, --jobs N, --repeat N, --timeout SECONDS, --set 'KEY: VALUE', --table-only)" ;;
		esac
	done
	[ "$exp_full$exp_quick" != 11 ] || exp_die "--full and --quick: one or the other"
	[ "$exp_quick" = 0 ] || [ -f "$exp_dir/matrix.quick" ] || exp_die "no quick matrix ($exp_dir/matrix.quick)"
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
	[ "$exp_quick" = 0 ] || matrix=$exp_dir/matrix.quick
	if [ -n "$exp_repeat" ]; then
		sed "s/^repeat:.*/repeat: $exp_repeat/" "$matrix" >"$exp_out/matrix"
		grep -q '^repeat:' "$exp_out/matrix" || echo "repeat: $exp_repeat" >>"$exp_out/matrix"
	else
		cp "$matrix" "$exp_out/matrix"
	fi
	exp_matrix_set "$exp_out/matrix"
	sed -i "s|{out}|$exp_out|g" "$exp_out/matrix"
	exp_calibration "$exp_out/matrix"
	if declare -F exp_matrix_hook >/dev/null; then exp_matrix_hook "$exp_out/matrix"; fi
	# A slice (--set) adds to what DIR holds: the table covers every slice
	# run into it, and the time is their sum.
	local before=() spent=0
	if [ ${#exp_sets[@]} -gt 0 ] && [ -f "$exp_out/runs.txt" ]; then
		mapfile -t before <"$exp_out/runs.txt"
		spent=$(cat "$exp_out/seconds.txt" 2>/dev/null || echo 0)
		rm -f "$exp_out/results.before.csv"
		[ ! -s "$exp_out/results.csv" ] || cp "$exp_out/results.csv" "$exp_out/results.before.csv"
	fi
	[ -z "$exp_timeout" ] || echo "$exp_timeout" >"$exp_out/timeout.txt"
	SECONDS=0
	"$exp_src/bench/sweep" "$exp_out/matrix" --build "$exp_build" --out "$exp_out" \
		--jobs "$exp_jobs" ${exp_timeout:+--timeout "$exp_timeout"} || exp_sweep_status=$?
	exp_seconds=$((spent + SECONDS))
	echo "$exp_seconds" >"$exp_out/seconds.txt"
	exp_provenance
	if [ ${#before[@]} -gt 0 ]; then
		{ printf '%s\n' "${before[@]}"; cat "$exp_out/runs.txt"; } | awk '!seen[$0]++' >"$exp_out/runs.all"
		mv "$exp_out/runs.all" "$exp_out/runs.txt"
		[ ! -s "$exp_out/results.before.csv" ] || exp_csv_merge "$exp_out/results.before.csv"
	fi
}

# Puts back into results.csv (the last slice's) the rows of OLD (an earlier
# slice's results.csv) whose run the last slice did not run again, so that
# results.csv covers every slice, as the table does. A row's first field
# is its run's name.
exp_csv_merge() {
	local old=$1 new=$exp_out/results.csv
	{
		head -1 "$new"
		awk -F, 'NR == FNR { if (FNR > 1) rerun[$1] = 1; next } FNR > 1 && !($1 in rerun)' "$new" "$old"
		tail -n +2 "$new"
	} >"$new.merged"
	mv "$new.merged" "$new"
	rm -f "$old"
}

# Runs a matrix whose page line is `page: 64k 4k` as two slices into DIR
# (issue 32: each configuration at 64 KB and at 4 KB pages): every run at
# 64 KB, then the 4 KB half with the 'KEY: VALUE' lines given, which say
# what it leaves out to stay affordable (its run script and README say
# why). A --set 'page: 4k' (or 64k) runs that half alone. A run of its own
# starts afresh; the caller's slices (--set) add to what DIR holds.
exp_sweep_pages() {
	local user=("${exp_sets[@]}") pages="64k 4k" set
	if [ "$exp_table_only" = 1 ]; then exp_sweep; return; fi
	for set in "${user[@]}"; do
		[[ $set != page:* ]] || pages=${set#page:}
	done
	[ ${#user[@]} -gt 0 ] || rm -f "$exp_out/runs.txt" "$exp_out/seconds.txt" "$exp_out/results.csv"
	if [[ " $pages " == *" 64k "* ]]; then
		exp_sets=("${user[@]}" "page: 64k")
		exp_sweep
	fi
	if [[ " $pages " == *" 4k "* ]]; then
		exp_sets=("${user[@]}" "page: 4k" "$@")
		exp_sweep
	fi
	exp_sets=("${user[@]}")
}

# What the table's footer says ran the matrix, recorded when it ran (so
# that --table-only tells of that run, not of now): the date, the commit of
# the sources ("-dirty" when tracked files differ from it: what ran is not
# what the commit holds; the experiments' READMEs do not count, since
# run-all writes their tables as it goes) and the machine, whose kind moves
# the figures that depend on the host (experiment 07; the emulator's cost
# everywhere).
exp_provenance() {
	local commit
	date -u '+%Y-%m-%d %H:%M UTC' >"$exp_out/date.txt"
	commit=$(git -C "$exp_src" rev-parse --short HEAD 2>/dev/null) || commit=unknown
	if [ "$commit" != unknown ] && ! git -C "$exp_src" diff --quiet HEAD -- . \
		':(exclude)bench/experiments/*/README.md' 2>/dev/null; then
		commit+=-dirty
	fi
	echo "$commit" >"$exp_out/commit.txt"
	exp_machine >"$exp_out/machine.txt"
}

# The machine in one line: CPUs and their model, the hypervisor if any,
# `uvmemu info`'s first line (the kernel) and its map-touch verdict (bare
# metal's page walks, or a hypervisor's exits: what prices page-table work).
exp_machine() {
	local cpu virt info kernel touch
	cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -1)
	virt=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor:[[:space:]]*//p' | head -1)
	if [ -n "$virt" ]; then
		virt="$virt guest"
	elif grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
		virt="a virtual machine"
	else
		virt="no hypervisor"
	fi
	info=$("$exp_build/bin/uvmemu" info 2>/dev/null || true)
	kernel=$(sed -n '1s/^kernel[[:space:]]*//p' <<<"$info")
	touch=$(sed -n 's/^map touch[[:space:]].*: //p' <<<"$info" | head -1)
	echo "$(nproc) CPUs (${cpu:-unknown model}), $virt, ${kernel:-unknown kernel}${touch:+, map touch: $touch}"
}

# Applies the --set lines to the copy MATRIX: each replaces the line of its
# key, with the lines that continue it ('\' at the end), in place; a key the
# matrix lacks is an error, so a typo cannot run the whole matrix.
exp_matrix_set() {
	local m=$1 set key
	for set in "${exp_sets[@]}"; do
		key=${set%%:*}
		grep -q "^$key:" "$m" || exp_die "--set '$set': the matrix has no '$key:' line"
		awk -v key="$key" -v line="$set" '
			cont { cont = /\\$/; next }
			index($0, key ":") == 1 { print line; cont = /\\$/; next }
			{ print }' "$m" >"$m.set" && mv "$m.set" "$m"
	done
}

# --dilation auto in a matrix: the dilation comes from the executor's
# bandwidth, measured once per machine by `uvmemu calibrate` and saved, so
# that every run of every experiment shares one time scale (runs that each
# measured their own differed by up to 2.5x). Each `--dilation auto` of the
# matrix gets `--calibration FILE`: $UVMEMU_CALIBRATION, else uvmemu's
# default file (~/.cache/uvmemu/calibration), made now if missing; a quick
# run makes its own in DIR from one measurement (a test must not write the
# user's cache). Where `uvmemu calibrate` fails, every run measures its own
# (--calibration none), and the table's footer shows the spread.
exp_calibration() {
	local m=$1 cal=${UVMEMU_CALIBRATION:-} runs=()
	grep -q -- '--dilation auto' "$m" || return 0
	if [ -z "$cal" ]; then
		cal=${XDG_CACHE_HOME:-$HOME/.cache}/uvmemu/calibration
		[ "$exp_quick" = 0 ] || { cal=$exp_out/calibration; runs=(--runs 1); }
	fi
	if [ "$cal" != none ] && [ ! -s "$cal" ]; then
		echo "$exp_name: calibrating the executor for --dilation auto (uvmemu calibrate --out $cal)"
		if ! "$exp_build/bin/uvmemu" calibrate "${runs[@]}" --out "$cal" >"$exp_out/calibrate.log" 2>&1; then
			echo "$exp_name: uvmemu calibrate failed ($(tail -1 "$exp_out/calibrate.log")): every --dilation auto run measures its own" >&2
			cal=none
		fi
	fi
	sed -i "s|--dilation auto|--dilation auto --calibration $cal|g" "$m"
}

# The value of KEY ("args", "args.bfs", "workloads") in MATRIX, one line.
exp_matrix_value() {
	sed -n "s/^$2:[[:space:]]*//p" "$1" | sed 's/[[:space:]]*#.*//' | head -1
}

# Profiles WORKLOAD with MATRIX's arguments for it (`uvmemu profile`, from
# the build BUILD if given): DIR/profiles/WORKLOAD.prof, the object profile
# --objects plans from, and WORKLOAD.trace, the access trace --evict opt
# reads (every block each launch touches: profile moves everything to the
# host before each launch).
exp_profile() {
	local m=$1 w=$2 pb=${3:-$exp_build} args
	args="$(exp_matrix_value "$m" args) $(exp_matrix_value "$m" "args.$w")"
	mkdir -p "$exp_out/profiles"
	echo "$exp_name: profiling $w $args${3:+ with $pb}"
	# shellcheck disable=SC2086 # the arguments are words
	"$pb/bin/uvmemu" profile --out "$exp_out/profiles/$w.prof" \
		--record-trace "$exp_out/profiles/$w.trace" --summary off \
		-- "$pb/bin/$w" $args >"$exp_out/profiles/$w.log" 2>&1 ||
		exp_die "profiling $w failed (see $exp_out/profiles/$w.log)"
}

# The --timeout the runs in DIR had (exp_sweep records it there, so a later
# slice or --table-only knows it), or nothing.
exp_limit() { cat "$exp_out/timeout.txt" 2>/dev/null || true; }

# Every run as one JSON object: the sweep's parameters, its status, and the
# report's fields (an empty report when it has none), in one array.
exp_rows() {
	local run st rc tmo
	tmo=$(exp_limit)
	while IFS= read -r run; do
		rc=$(cat "$exp_out/runs/$run.rc" 2>/dev/null || echo none)
		case $rc in
		0) st=passed ;;
		124) [ -n "$tmo" ] && st=timeout || st=failed ;;
		*) st=failed ;;
		esac
		if jq -e . "$exp_out/runs/$run.json" >/dev/null 2>&1; then
			jq -c --arg st "$st" --slurpfile p "$exp_out/runs/$run.params.json" \
				'$p[0] + {exit: $st, r: .}' "$exp_out/runs/$run.json"
		else
			jq -c --arg st "$st" '. + {exit: $st, r: {}}' "$exp_out/runs/$run.params.json"
		fi
	done <"$exp_out/runs.txt" | jq -s .
}

# jq helpers for the tables, prepended to each experiment's filter:
#   ok          the run exited 0 and verified
#   timedout    the run was stopped by --timeout
#   backend     the backend that ran (remap, copy), from the report
#   roi_time    a run's time of the region of interest on its clock: under
#               the model clock the modelled GPU time (gpu_s, the headline),
#               under the real clock the host's wall time (roi_s)
#   agg(f)      a group's figure over its repeats: the median under the
#               model clock (its runs differ by how the host scheduled them,
#               and no run is the "right" one), the best (smallest) under
#               the real clock (every disturbance only adds time)
#   tlabel      the column label of roi_time for the rows given: "gpu s",
#               "roi s", or both where the clocks mix
#   best(f)     the smallest f over a group's passing runs
#   med(f)      the median of f over a group's passing runs
#   spread(f)   " (min-max)" of f over them, "" for fewer than two
#   fmt(x; n)   x with n decimals, "-" when null
#   xfmt(v)     v as a factor with 2 decimals ("1.5x"), "-" when null
#   ratio(a; b) a / b, null when either is missing or b is 0
#   percent(x)  x (a fraction) in percent, null when null
#   change(a; b) (a - b) / b in percent, null when either is missing or b is 0
#   clock       the run's clock ("real" for reports from before the model clock)
exp_jq_lib='
def ok: .exit == "passed" and .r.verify == "pass";
def timedout: .exit == "timeout";
def backend: .r.backend // ((.uvmemu + " " + .policy) | capture("--backend (?<b>[a-z]+)").b? // "-");
def clock: .r.clock // (if .r == {} then null else "real" end);
def roi_time: if clock == "model" then .r.gpu_s else .r.roi_s end;
def best(f): map(select(ok) | f) | min;
def med(f): map(select(ok) | f) | sort | if length == 0 then null else .[(length - 1) / 2 | floor] end;
def agg(f): if any(.[]; ok and clock == "model") then med(f) else best(f) end;
def tlabel: [.[] | select(ok) | clock] | unique | if . == ["model"] then "gpu s" elif . == ["real"] then "roi s" else "gpu s (model) / roi s (real)" end;
def spread(f): map(select(ok) | f) | if length < 2 then "" else " (\(min | . * 1000 | round / 1000)-\(max | . * 1000 | round / 1000))" end;
def fmt(x; n): if x == null then "-" else (x * pow(10; n) | round) / pow(10; n) | tostring end;
def ratio(a; b): if a == null or b == null or b == 0 then null else a / b end;
def xfmt(v): if v == null then "-" else fmt(v; 2) + "x" end;
def percent(x): if x == null then null else x * 100 end;
def change(a; b): if a == null or b == null or b == 0 then null else (a - b) / b * 100 end;
'

# The footer line of a table (one line, "runs: ..."): how many runs and how
# many passed, how long the experiment took, and what the issue asks every
# table to state: date, commit, machine, clock, dilation D, repeats; what
# measured compute under the model clock (--compute); then the backends and
# the calibration. From ROWS (exp_rows' JSON) and the
# files exp_provenance wrote when the matrix ran.
exp_footer() {
	local rows=$1 when commit machine
	when=$(cat "$exp_out/date.txt" 2>/dev/null || date -u '+%Y-%m-%d %H:%M UTC')
	commit=$(cat "$exp_out/commit.txt" 2>/dev/null || echo unknown)
	machine=$(cat "$exp_out/machine.txt" 2>/dev/null || exp_machine)
	printf '%s\n' "$rows" | jq -r --arg secs "${exp_seconds:-?}" --arg when "$when" \
		--arg commit "$commit" --arg machine "$machine" "$exp_jq_lib"'
def range_of(xs): xs | sort | if length == 0 then "-" elif .[0] == .[-1] then .[0] | tostring
  else "\(.[0])-\(.[-1]) (median \(.[(length - 1) / 2 | floor]))" end;
([.[] | clock // empty] | unique) as $clocks
| "runs: \(length), passing: \(map(select(ok)) | length); experiment time \($secs) s; \($when); commit \($commit); machine: \($machine); "
  + "clock \(if $clocks == [] then "-" else $clocks | join(", ") end)"
  + (if $clocks == ["model"] then " (times: gpu_s, modelled; figures: the median of the repeats)"
     elif $clocks == ["real"] then " (times: wall time on the host)" else "" end)
  + "; repeats \([.[].repeat // 1] | max // 0); D (dilation) \(range_of([.[].r.model.dilation // empty | . * 10 | round / 10]))"
  + (if $clocks == ["model"] then "; compute measured by \([.[].r.model.compute // "cpu"] | unique | join(", "))" else "" end)
  + "; backend \([.[].r.backend // empty] | unique | join(", "))"
  + "; calibration \([.[].r.model.calibration_source // empty | if . == "" then "measured per run" else . end] | unique | if length == 0 then "-" else join(", ") end)"'
}

# Writes the table (markdown, from the jq filter in $1 over exp_rows; more
# jq arguments may follow) to DIR/table.md and prints it with its footer
# (exp_footer). Runs under the real clock add the table of model overruns
# and late wakes, which exist only there (the model clock waits for
# nothing). A filter that fails makes exp_done fail.
exp_table_status=0
exp_table() {
	local rows filter=$1
	shift
	rows=$(exp_rows)
	printf '%s\n' "$rows" >"$exp_out/rows.json"
	{
		printf '%s\n' "$rows" | jq -r --argjson timeout "$(exp_limit | grep . || echo null)" \
			"$@" "$exp_jq_lib $filter" || exp_table_status=$?
		echo
		exp_footer "$rows" || exp_table_status=$?
		if jq -e "$exp_jq_lib"' any(.[]; ok and clock == "real")' <<<"$rows" >/dev/null; then
			echo
			echo "Model overruns (real-clock runs: batches whose real cost exceeded the modelled time, of those the model charges time for), and late wakes (batches whose threads the driver woke more than a tenth of their modelled time late: the host's scheduler, not the emulator's work):"
			echo
			printf '%s\n' "$rows" | jq -r "$exp_jq_lib"'
"| backend | link | runs | overrun batches | late wakes | modelled batches | overrun share | late-wake share |",
"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
(map(select(ok and clock == "real")) | group_by([.r.backend, .link])[]
 | (map(.r.model_overruns // 0) | add) as $o | (map(.r.modelled_batches // 0) | add) as $m
 | (map(.r.late_wakes // 0) | add) as $l
 | "| \(.[0].r.backend // "-") | \(.[0].link) | \(length) | \($o) | \($l) | \($m) | \(if $m > 0 then fmt(100 * $o / $m; 1) + "%" else "-" end) | \(if $m > 0 then fmt(100 * $l / $m; 1) + "%" else "-" end) |")' ||
				exp_table_status=$?
		fi
	} >"$exp_out/table.md"
	cat "$exp_out/table.md"
}

exp_done() {
	[ "$exp_table_status" = 0 ] || { echo "$exp_name: making the table failed" >&2; return 1; }
	[ "$exp_sweep_status" = 0 ] || echo "$exp_name: some runs failed or did not verify (see $exp_out/results.csv)" >&2
	return "$exp_sweep_status"
}
