# tests/bench/sweep_prelude.sh - sourced by the tests that run bench/sweep
# (directly or through an experiment's `run`): skips where GNU parallel, jq
# or userfaultfd are missing, makes $dir (removed on exit) and a fail()
# that counts into $fails. Expects $build to be set.
# shellcheck shell=bash
for tool in parallel jq; do
	command -v $tool >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
: "${build:?sweep_prelude.sh: the sourcing test sets build}"
"$build/bin/uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
