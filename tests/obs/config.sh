#!/usr/bin/env bash
# Description: `uvmemu run --config FILE` applies the file's `name = value`
# lines (option names in either case, nvidia-uvm parameters with the driver's
# values and units, '#' comments); variables and command-line options win
# over the file wherever they stand; the report records the file's path and
# contents; the driver's names also work as variables and options; a bad line
# is a one-line error naming the file and the line, with exit status 2.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
uvmemu=$build/bin/uvmemu
"$uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A run of /bin/true under the emulator: the report holds the resolved options.
run() { # REPORT OPTIONS...
	local r=$1
	shift
	"$uvmemu" run --summary off --report "$r" "$@" -- /bin/true >out.txt 2>&1 ||
		{ fail "run $* failed: $(cat out.txt)"; return 1; }
}
want() { # REPORT JQ-PATH VALUE
	local got
	got=$(jq -r "$2" "$1")
	[ "$got" = "$3" ] || fail "$1: $2 is '$got', expected '$3'"
}

cat >exp.conf <<'EOF'
# 125% with the driver's own settings
policy = nvidia
prefetch_threshold = 40              # snake case works too
uvm_perf_thrashing_lapse_usec = 800  # the driver's microseconds
uvm_perf_fault_replay_policy = 3     # the driver's number for "once"
uvm_perf_fault_max_batches_per_service = 7
Device-Mem = 64M

EOF
run a.json --config exp.conf
want a.json .config.prefetch 'tree'                 # from the preset
want a.json .config.prefetch_threshold 40
want a.json .config.thrashing_lapse 0.0008
want a.json .config.replay once
want a.json .config.max_batches_per_service 7
want a.json .config.device_mem 67108864
want a.json .config_file.path exp.conf
[ "$(jq -r .config_file.contents a.json)" = "$(cat exp.conf)" ] || fail "the report's contents differ from the file"

# Options win over the file, before or after --config; variables too.
run b.json --prefetch-threshold 60 --config exp.conf --replay batch
want b.json .config.prefetch_threshold 60
want b.json .config.replay batch
UVMEMU_PREFETCH_THRESHOLD=70 run c.json --config=exp.conf
want c.json .config.prefetch_threshold 70
# The file named by a variable.
UVMEMU_CONFIG=exp.conf run d.json
want d.json .config.replay once
want d.json .config_file.path exp.conf
# Driver names as variables (as modprobe spells them, or UVMEMU_ in capitals) and options.
uvm_perf_prefetch_enable=0 UVMEMU_UVM_PERF_FAULT_BATCH_COUNT=64 run e.json --uvm-perf-thrashing-enable 1
want e.json .config.prefetch none
want e.json .config.batch 64
want e.json .config.thrashing on
want e.json .config_file null
# UVMEMU_ variables win over the driver's names.
uvm_perf_fault_batch_count=32 UVMEMU_BATCH=16 run f.json
want f.json .config.batch 16

# Bad input: one line on stderr naming the file and line, exit 2.
bad() { # EXPECTED-TEXT FILE-CONTENTS
	printf '%b' "$2" >bad.conf
	"$uvmemu" run --config bad.conf -- /bin/true >/dev/null 2>err.txt
	local rc=$?
	[ $rc -eq 2 ] || fail "'$2': exit $rc, expected 2"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$2': not one line: $(cat err.txt)"
	grep -qF -- "$1" err.txt || fail "'$2': '$1' not in: $(cat err.txt)"
}
bad "bad.conf:3: unknown option 'prefetcher'" '# x\n\nprefetcher = tree\n'
bad "bad.conf:1: batch='12x': expected a whole number" 'batch = 12x\n'
bad "bad.conf:2: expected 'name = value'" 'batch = 8\njust words\n'
bad "bad.conf:1: no name before '='" ' = 3\n'
bad "bad.conf:1: uvm_perf_fault_replay_policy='7': accepted values are 0=block" 'uvm_perf_fault_replay_policy = 7\n'
bad "bad.conf:1: uvm_perf_thrashing_lapse_usec='1ms': expected a whole number of microseconds" 'uvm_perf_thrashing_lapse_usec = 1ms\n'
bad "bad.conf:1: uvm_perf_access_counter_granularity='2m': accepted values are 64k" 'uvm_perf_access_counter_granularity = 2m\n'
bad "bad.conf:1: uvm_perf_thrashing_threshold='0': must be between 1 and" 'uvm_perf_thrashing_threshold = 0\n'
bad "bad.conf:1: a config file cannot name another one" 'config = other.conf\n'
bad "bad.conf: not a text file" 'batch = 8\0\n'
"$uvmemu" run --config missing.conf -- /bin/true 2>err.txt
[ $? -eq 2 ] && grep -q "missing.conf: cannot read it" err.txt || fail "a missing file: $(cat err.txt)"
uvm_perf_fault_coalesce=1 "$uvmemu" run -- /bin/true 2>err.txt
[ $? -eq 2 ] && grep -q "unknown variable uvm_perf_fault_coalesce" err.txt ||
	fail "an unmodelled driver parameter: $(cat err.txt)"
# --help lists every alias.
"$uvmemu" --help >help.txt
aliases=$(sed -nE 's/^UVMEMU_ALIAS\("([a-z_]+)".*/\1/p' "$src/libuvmemu/src/common/aliases.def")
[ "$(echo "$aliases" | wc -w)" -ge 15 ] || fail "aliases.def lists fewer than the 15 parameters"
for a in $aliases; do
	grep -q "^  $a " help.txt || fail "--help does not list $a"
done
[ $fails -eq 0 ] || exit 1
echo "config files, aliases and precedence behave"
