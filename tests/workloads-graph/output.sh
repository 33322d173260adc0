#!/usr/bin/env bash
# Description: bfs and sssp write, with --output, the levels and distances
# the GPU computed on small hand-made graphs whose answers were worked out by
# hand here (every format, --source, SNAP ids renumbered with an "ids"
# section), and the printed summary agrees with them. An unwritable --output
# is one line and exit 2, before any work, for graph and other workloads.
# usage: output.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

# expect WORKLOAD INPUT "ARGS" "SECTION: VALUES..." ["SECTION: VALUES..."]:
# the --output file must be the header and exactly these sections.
expect() {
	local wl=$1 in=$tmp/$2 args=$3 want got rc sec
	shift 3
	want=$(printf '# uvmemu-workload-output 1\n# workload %s\n' "$wl"
		for sec in "$@"; do
			set -- ${sec#*:}
			printf '# section %s %d\n' "${sec%%:*}" $#
			printf '%s\n' "$@"
		done)
	"$build/bin/$wl" --input "$in" $args --quiet --output "$tmp/out" >"$tmp/log" 2>&1; rc=$?
	got=$(cat "$tmp/out" 2>/dev/null)
	if [ $rc -ne 0 ] || [ "$got" != "$want" ]; then
		echo "FAIL: $wl --input ${in##*/} $args: exit $rc; output:"
		echo "$got"
		echo "expected:"
		echo "$want"
		cat "$tmp/log"
		fail=1
	else
		echo "ok: $wl ${in##*/} $args: $(tr '\n' ' ' <<<"${got#*section}")"
	fi
}

# Six nodes, directed, weighted (DIMACS, 1-based); node 6 has no arcs.
#   1->2 (4), 1->3 (1), 3->2 (1), 2->4 (1), 4->5 (3), 3->5 (7)
printf 'c hand-made\np sp 6 6\na 1 2 4\na 1 3 1\na 3 2 1\na 2 4 1\na 4 5 3\na 3 5 7\n' >"$tmp/g.gr"
inf=2147483647
expect bfs g.gr "" "level: 0 1 1 2 2 -1"
expect sssp g.gr "" "distance: 0 2 1 3 6 $inf"
expect bfs g.gr "--source 3" "level: -1 1 0 2 1 -1"
expect sssp g.gr "--source 3" "distance: $inf 1 0 2 5 $inf"

# The same arcs as a SNAP edge list with sparse ids 1->100, 2->20, 3->3000,
# 4->5, 5->777: nodes are the ids in ascending order (5 20 100 777 3000),
# and the source is the file's first vertex, 100.
printf '# Directed graph\n# Nodes: 5 Edges: 6\n100\t20\n100\t3000\n3000\t20\n20\t5\n5\t777\n3000\t777\n' \
	>"$tmp/g.txt"
expect bfs g.txt "" "level: 2 1 0 2 1" "ids: 5 20 100 777 3000"
expect bfs g.txt "--source 3000" "level: 2 1 -1 1 0" "ids: 5 20 100 777 3000"
out=$("$build/bin/bfs" --input "$tmp/g.txt" 2>&1)
grep -q "^bfs: snap graph: 5 nodes, 6 arcs, source 100$" <<<"$out" &&
	grep -q "^bfs: 3 levels (deepest node at 2), 5 nodes reached" <<<"$out" ||
	{ echo "FAIL: bfs's summary of g.txt:"; echo "$out"; fail=1; }

# Undirected SNAP: each edge stored both ways.
printf '# Undirected graph: a path\n1 2\n2 3\n' >"$tmp/path.txt"
expect bfs path.txt "--source 3" "level: 2 1 0" "ids: 1 2 3"
# PACE (undirected, 1-based) and Rodinia text (0-based, weights as given).
printf 'p tw 4 3\n1 2\n2 3\n3 4\n' >"$tmp/path.gr"
expect bfs path.gr "--source 2" "level: 1 0 1 2"
printf '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 4\n2 4\n0 4\n' >"$tmp/ring.txt"
expect bfs ring.txt "" "level: 0 1 2"
expect sssp ring.txt "--source 1" "distance: 8 0 4"
out=$("$build/bin/sssp" --input "$tmp/ring.txt" 2>&1)
grep -q "^sssp: .* 3 nodes reached (farthest at 8)" <<<"$out" ||
	{ echo "FAIL: sssp's summary of ring.txt:"; echo "$out"; fail=1; }

# An unwritable --output: one line, exit 2, for graph and other workloads.
for wl in bfs sssp vecadd hotspot nw; do
	usage_error $wl "^$wl: --output '$tmp/no/such/dir': No such file or directory$" \
		--output "$tmp/no/such/dir"
done
usage_error atax "^atax: --output '$tmp': Is a directory$" --output "$tmp"
exit $fail
