#!/usr/bin/env bash
# Description: with GMMU accessors built in, under the model clock, an access
# to a block the real driver mapped before the slot's modelled time reached
# the block's arrival is a fault (a late hit): the real driver maps a block
# at once, while slots behind it in modelled time would still find it
# missing on a GPU. sgemm, fitting and without prefetching (experiment 06's
# Table 3 case), reads the same tiles from every CTA: with late hits its
# batches hold those faults, and with `--late-hits hit` there are none and
# fewer faults in all. The data is the same either way.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
fails=0
for mode in fault hit; do
	"$build/bin/uvmemu" run --clock model --prefetch none --late-hits $mode --summary off \
		--report "$dir/$mode.json" -- "$build/bin/sgemm" --footprint 2M --quiet >/dev/null ||
		{ echo "FAIL: the run with --late-hits $mode failed"; exit 1; }
	read -r verify late joins faults batches < <(jq -r \
		'[.verify, .gpu.late_hits, .gpu.late_joins, .gpu.faults, .gpu.batches] | @tsv' \
		"$dir/$mode.json")
	echo "sgemm 2M, --late-hits $mode: $late late hits ($joins joined a pending fault of their SM), $faults faults in $batches batches, verify $verify"
	[ "$verify" = pass ] || { echo "FAIL: verify $verify"; fails=1; }
	eval "late_$mode=$late faults_$mode=$faults"
done
# shellcheck disable=SC2154
{
	[ "$late_fault" -gt 0 ] || { echo "FAIL: no late hit"; fails=1; }
	[ "$late_hit" -eq 0 ] || { echo "FAIL: $late_hit late hits under --late-hits hit"; fails=1; }
	[ "$faults_fault" -gt "$faults_hit" ] ||
		{ echo "FAIL: $faults_fault faults with late hits, not more than $faults_hit"; fails=1; }
}
exit $fails
