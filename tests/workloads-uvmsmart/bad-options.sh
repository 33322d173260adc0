#!/usr/bin/env bash
# Description: wrong options to the UVMSmart set (workloads/uvmsmart) each
# print exactly one line that names the program and the offending option, and
# exit with status 2: the options of the programs of their own, the layout
# options the set added to bfs and srad_v2, and errors in a preset program
# (reported under its us- name, the user's option winning over the preset's).
# usage: bad-options.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
# shellcheck source=../expect_error.sh
. "$src/tests/expect_error.sh"
b=$build/bin

for p in us-ra us-addvectors us-sssp us-stencil; do
	expect 2 "^$p: unknown option '--bogus'" "$b/$p" --bogus
	expect 2 "^$p: --footprint '12Q'" "$b/$p" --footprint 12Q
done
expect 2 "^us-ra: --n '0'" "$b/us-ra" --n 0
expect 2 "^us-ra: --every 'x'" "$b/us-ra" --every x
expect 2 "^us-ra: give --footprint or --n" "$b/us-ra" --footprint 24M --n 100
expect 2 "^us-ra: --footprint gives 0 elements" "$b/us-ra" --footprint 8
expect 2 "^us-addvectors: --n '-1'" "$b/us-addvectors" --n -1
expect 2 "^us-addvectors: give --footprint or --n" "$b/us-addvectors" --footprint 24M --n 10
expect 2 "^us-sssp: --nodes '1'" "$b/us-sssp" --nodes 1
expect 2 "^us-sssp: --degree '0'" "$b/us-sssp" --degree 0
expect 2 "^us-sssp: --degree 5: needs more than that many --nodes" "$b/us-sssp" --nodes 5 --degree 5
expect 2 "^us-sssp: --max-iterations '0'" "$b/us-sssp" --max-iterations 0
expect 2 "^us-sssp: give --footprint or --nodes, not both" "$b/us-sssp" --footprint 24M --nodes 100
expect 2 "^us-stencil: --nx '2'" "$b/us-stencil" --nx 2
expect 2 "^us-stencil: --iterations '0'" "$b/us-stencil" --iterations 0
expect 2 "^us-stencil: --footprint sizes x and y: it excludes --nx" "$b/us-stencil" --footprint 24M --nx 100
expect 2 "^us-stencil: 65536 x 65536 x 3 cells" "$b/us-stencil" --nx 65536 --ny 65536 --nz 3

expect 2 "^bfs: --over 'host': expected managed or device" "$b/bfs" --over host
expect 2 "^us-bfs: --over 'host': expected managed or device" "$b/us-bfs" --over host
expect 2 "^srad_v2: --scratch 'x': expected managed or device" "$b/srad_v2" --scratch x
expect 2 "^us-srad_v2: --scratch 'x': expected managed or device" "$b/us-srad_v2" --scratch x
# The user's --nodes replaces the preset's, and --input the preset's --nodes.
expect 2 "^us-bfs: --nodes '0'" "$b/us-bfs" --nodes 0
expect 2 "^us-bfs: /nonexistent: cannot open" "$b/us-bfs" --input /nonexistent
expect 2 "^us-backprop: --inputs '17'" "$b/us-backprop" --inputs 17
expect 2 "^us-nw: --n '100': expected a multiple of 16" "$b/us-nw" --n 100
# A preset's input goes when --footprint sizes the program: the workload
# would refuse both together.
expect 2 "^us-2dconv: --footprint 1 is below the smallest matrices" "$b/us-2dconv" --footprint 1

[ "$fails" -eq 0 ] || { echo "FAIL: $fails case(s)"; exit 1; }
echo "all cases passed"
