#!/usr/bin/env bash
# Description: the graph readers (Rodinia text, DIMACS-9, PACE-2016, SNAP)
# reject malformed input files with exactly one line, "WORKLOAD: FILE:LINE:
# ...", and exit status 2, even with the runtime's summary on; a well-formed
# file of each format is accepted and verifies (so the check can tell apart a
# reader that rejects everything). At least ten malformed cases per format.
# usage: malformed.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

for wl in bfs sssp; do
	[ -x "$build/bin/$wl" ] || { echo "FAIL: $build/bin/$wl not built"; exit 1; }
done

# Every format, both workloads: the well-formed file and a few errors.
for wl in bfs sssp; do
	accept $wl ok.gr 'c tiny\np sp 3 3\na 1 2 5\na 2 3 1\na 1 3 9\n'
	accept $wl ok.pace 'p tw 3 2\n1 2\n2 3\n'
	accept $wl ok.txt '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 4\n2 4\n0 4\n'
	accept $wl ok.snap '# Directed graph\n# Nodes: 3 Edges: 3\n# FromNodeId\tToNodeId\n7\t90\n90\t1000000\n1000000\t7\n'
	reject $wl range.gr 3 'p sp 3 2\na 1 2 5\na 2 4 1\n'
	reject $wl empty.gr 1 ''
	reject $wl rodinia.txt 10 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n'
	reject $wl snap-count.txt 4 '# Nodes: 3 Edges: 3\n1 2\n2 3\n\n'
done

# Rodinia text: N, "offset degree" x N, source, E, "dest weight" x E.
R=rodinia
reject bfs $R-dest.txt 11 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n9 1\n' "destination node '9'"
reject bfs $R-offset.txt 3 '3\n0 1\nzz 1\n2 1\n\n0\n\n3\n1 1\n2 1\n0 1\n' "edge offset 'zz'"
reject bfs $R-degree.txt 2 '3\n0 -1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n0 1\n' "degree '-1'"
reject bfs $R-source.txt 6 '3\n0 1\n1 1\n2 1\n\n7\n\n3\n1 1\n2 1\n0 1\n' "source node '7'"
# A node whose edges run past E names its range in order (first..last).
reject bfs $R-past.txt 7 '2\n0 1\n1 2\n\n0\n\n2\n1 1\n0 1\n' "node 1's edges 1\.\.2 run past the edge count 2"
reject bfs $R-cut.txt 2 '3\n0 1\n' "unexpected end of file: missing a node's edge offset"
reject bfs $R-extra.txt 12 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n0 1\n5 5\n' "unexpected data after the 3 edges"
reject bfs $R-weight.txt 11 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1 1\n2 1\n0\n' "missing an edge's weight"
reject bfs $R-zero.txt 1 '0\n' "node count '0'"
reject bfs $R-huge.txt 1 '99999999999999999999\n' "node count '99999999999999999999'"
reject bfs $R-nul.txt 3 '3\n0 1\n1\0 1\n' "NUL byte"
reject bfs $R-float.txt 9 '3\n0 1\n1 1\n2 1\n\n0\n\n3\n1.5 1\n' "destination node '1.5'"
# A node of degree 0 has no edges, whatever its offset: accepted even past E.
accept bfs $R-deg0.txt '3\n0 1\n8 0\n1 1\n\n0\n\n2\n2 1\n0 1\n'
accept sssp $R-deg0.txt

# DIMACS-9: c comments, p sp N M, a u v w.
D=dimacs
reject bfs $D-noproblem.gr 2 'c no problem line\na 1 2 5\n' "before the problem line"
reject bfs $D-short.gr 3 'p sp 3 3\na 1 2 5\na 2 3 1\n' "2 arcs, the problem line declares 3"
reject bfs $D-long.gr 3 'p sp 3 1\na 1 2 5\na 2 3 1\n' "more arcs than the 1"
reject bfs $D-extra.gr 2 'p sp 3 1\na 1 2 3 4\n' "unexpected '4'"
reject bfs $D-weight.gr 2 'p sp 3 1\na 1 2 x\n' "arc weight 'x'"
reject bfs $D-negweight.gr 2 'p sp 3 1\na 1 2 -4\n' "arc weight '-4'"
reject bfs $D-kind.gr 1 'p xx 3 1\n' "unknown problem line"
reject bfs $D-second.gr 3 'p sp 3 1\na 1 2 3\np sp 3 1\n' "a second problem line"
reject bfs $D-nodes.gr 1 'p sp x 1\n' "node count 'x'"
reject bfs $D-tail0.gr 2 'p sp 3 1\na 0 2 3\n' "arc tail '0'"
reject bfs $D-line.gr 3 'p sp 3 2\na 1 2 3\nb 2 3 4\n' "unexpected 'b'"
reject bfs $D-missing.gr 2 'p sp 3 1\na 1 2\n' "missing arc weight"

# PACE-2016: p tw N M, u v.
P=pace
reject bfs $P-long.gr 3 'p tw 3 1\n1 2\n2 3\n' "more edges than the 1"
reject bfs $P-short.gr 2 'p tw 3 2\n1 2\n' "1 edges, the problem line declares 2"
reject bfs $P-range.gr 2 'p tw 3 1\n1 4\n' "edge endpoint '4'"
reject bfs $P-zero.gr 2 'p tw 3 1\n0 1\n' "edge endpoint '0'"
reject bfs $P-count.gr 1 'p tw 3\n' "missing edge count"
reject bfs $P-word.gr 2 'p tw 3 1\n1 two\n' "edge endpoint 'two'"
reject bfs $P-third.gr 2 'p tw 3 1\n1 2 3\n' "unexpected '3'"
reject bfs $P-second.gr 2 'p tw 3 1\np tw 3 1\n' "a second problem line"
reject bfs $P-missing.gr 2 'p tw 3 1\n1\n' "missing edge endpoint"
reject bfs $P-negative.gr 1 'p tw 3 -1\n' "edge count '-1'"
reject bfs $P-nodes0.gr 1 'p tw 0 1\n' "node count '0'"

# SNAP: # comments (Nodes: N Edges: M), then "u v" per line, sparse ids.
S=snap
reject bfs $S-word.txt 2 '# c\n1\tx\n' "target id 'x'"
reject bfs $S-negative.txt 1 '-1 2\n' "source id '-1'"
reject bfs $S-negative2.txt 2 '1 2\n-1 2\n' "source id '-1'"
reject bfs $S-one.txt 3 '# c\n1 2\n3\n' "missing target id"
reject bfs $S-three.txt 2 '# c\n1 2 3\n' "unexpected '3'"
reject bfs $S-header.txt 1 '# Nodes: many Edges: 2\n1 2\n2 3\n' "header 'Nodes:' needs a count"
reject bfs $S-fewer.txt 3 '# Nodes: 3 Edges: 3\n1 2\n2 3\n' "2 edges, the header \(line 1\) declares 3"
reject bfs $S-more.txt 3 '# Nodes: 3 Edges: 1\n1 2\n2 3\n' "more edges than the 1 the header"
reject bfs $S-nodes.txt 3 '# Nodes: 2 Edges: 2\n1 2\n2 3\n' "3 distinct vertices, more than the 2"
reject bfs $S-noedges.txt 2 '# Directed graph\n# Nodes: 0 Edges: 0\n' "no edges in the file"
reject bfs $S-second.txt 2 '# Nodes: 3 Edges: 2\n# Nodes: 3\n1 2\n2 3\n' "a second 'Nodes:' header"
reject bfs $S-overflow.txt 1 '1 9223372036854775808\n' "target id '9223372036854775808'"
reject bfs $S-float.txt 2 '1 2\n2.5 3\n' "source id '2.5'"
reject bfs $S-nul.txt 2 '1 2\n2\0 3\n' "NUL byte"

# Under the emulator too, the error is the run's only line, and the report
# says the run stopped on a usage error.
if "$build/bin/uvmemu" run --summary off -- "$build/bin/bfs" --nodes 10 --quiet >/dev/null 2>&1; then
	printf 'p sp 3 1\na 1 2 x\n' >"$tmp/emu.gr"
	err=$("$build/bin/uvmemu" run --report "$tmp/emu.json" -- "$build/bin/bfs" --input "$tmp/emu.gr" 2>&1)
	rc=$?
	if [ $rc -ne 2 ] || [ "$err" != "bfs: $tmp/emu.gr:2: arc weight 'x' is not a number from 0 to 2147483647" ] ||
		! grep -q '"usage_error": true' "$tmp/emu.json"; then
		echo "FAIL: emulated bfs on emu.gr: exit $rc, want exit 2, one line and usage_error in the report:"
		echo "$err"
		fail=1
	else
		echo "ok (emulated): $err"
	fi
else
	echo "note: the emulator cannot run here; the emulated case is not run"
fi
exit $fail
