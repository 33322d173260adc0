#!/usr/bin/env bash
# Description: --source V of the graph workloads names a vertex as the input
# names it (1-based for DIMACS and PACE, the file's id for SNAP, 0-based for
# Rodinia and generated graphs); one that the graph lacks is one line, exit 2.
# A source that reaches no other node gets a warning line and still verifies.
# usage: source.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

printf 'p sp 3 2\na 1 2 5\na 2 3 1\n' >"$tmp/g.gr"
printf 'p tw 3 1\n1 2\n' >"$tmp/g.pace"
printf '3\n0 1\n1 1\n2 0\n\n0\n\n2\n1 4\n2 4\n' >"$tmp/g.txt"
printf '# Directed\n40 7\n7 123456789012\n' >"$tmp/g.snap"
for wl in bfs sssp; do
	usage_error $wl "^$wl: --source 0: accepted 1 to 3 \(vertex ids of the file are 1-based\)$" \
		--input "$tmp/g.gr" --source 0
	usage_error $wl "^$wl: --source 4: accepted 1 to 3" --input "$tmp/g.pace" --source 4
	usage_error $wl "^$wl: --source 3: accepted 0 to 2$" --input "$tmp/g.txt" --source 3
	usage_error $wl "^$wl: --source 8: no edge of the SNAP file names that vertex$" \
		--input "$tmp/g.snap" --source 8
	usage_error $wl "^$wl: --source 5: accepted 7 to 123456789012 \(a vertex id of the SNAP file\)$" \
		--input "$tmp/g.snap" --source 5
	usage_error $wl "^$wl: --source 100: accepted 0 to 99$" --nodes 100 --source 100
	usage_error $wl "^$wl: --source '-1': expected a whole number >= 0$" --nodes 100 --source -1
	usage_error $wl "^$wl: --source 'x': expected a whole number >= 0$" --nodes 100 --source x
	accept $wl g.gr "" --source 3
	accept $wl g.snap "" --source 123456789012
done

# warns WORKLOAD PATTERN ARGS...: verifies, and says PATTERN in a warning line.
warns() {
	local wl=$1 pat=$2 out rc
	shift 2
	out=$("$build/bin/$wl" --quiet "$@" 2>&1); rc=$?
	if [ $rc -ne 0 ] || ! grep -q "^$wl: verify pass" <<<"$out" ||
		! grep -Eq "^$wl: warning: $pat" <<<"$out"; then
		echo "FAIL: $wl $*: exit $rc, want verify pass and a warning '$pat':"
		echo "$out"
		fail=1
	else
		echo "ok: $(grep warning <<<"$out")"
	fi
}
for wl in bfs sssp; do
	# The last node has no arcs out; in SNAP the id 123456789012 neither.
	warns $wl "the source, vertex 3, reaches no other of the 3 nodes" --input "$tmp/g.gr" --source 3
	warns $wl "the source, vertex 123456789012, reaches no other of the 3 nodes" \
		--input "$tmp/g.snap" --source 123456789012
	# A source that does reach others gets no warning.
	out=$("$build/bin/$wl" --quiet --input "$tmp/g.gr" --source 2 2>&1)
	! grep -q warning <<<"$out" || { echo "FAIL: $wl warned from vertex 2: $out"; fail=1; }
done
exit $fail
