#!/usr/bin/env bash
# Description: xz- and gzip-compressed graph files. A good stream (and gzip
# members one after another) is read; a stream cut anywhere is reported as
# "truncated xz data" / "truncated gz data", and one with a flipped byte or
# trailing garbage as "corrupt xz data" / "corrupt gz data", in one line with
# exit 2, whatever the text decoded before the damage looks like (the decoder's
# verdict comes before parsing what it produced).
# usage: compressed.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

[ -x "$build/bin/bfs" ] || { echo "FAIL: $build/bin/bfs not built"; exit 1; }
command -v xz >/dev/null || { echo "SKIP: xz is not installed"; exit 77; }
command -v gzip >/dev/null || { echo "SKIP: gzip is not installed"; exit 77; }

# A PACE graph (a ring of 3000 nodes) long enough that cuts and flips land in
# the middle of compressed data, and its SNAP form.
awk 'BEGIN { n = 3000; print "p tw " n " " n; for (i = 1; i <= n; i++) print i, i % n + 1 }' \
	>"$tmp/ring.gr"
awk 'BEGIN { n = 3000; print "# Undirected graph: ring"; print "# Nodes: " n " Edges: " n;
	for (i = 0; i < n; i++) print i "\t" (i + 1) % n }' >"$tmp/ring.txt"

# flip FILE OFFSET: inverts the byte at OFFSET in place.
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((255 - b)))" |
		dd of="$1" bs=1 seek="$2" count=1 conv=notrunc status=none
}

# damaged KIND FILE: the 11 damaged copies of FILE (compressed as KIND) must
# each be rejected with KIND's decoder message.
damaged() {
	local kind=$1 src=$2 len cut off i=0
	len=$(stat -c %s "$src")
	for cut in 4 10 30 $((len / 3)) $((len / 2)) $((2 * len / 3)) $((len - 4)) $((len - 1)); do
		head -c "$cut" "$src" >"$tmp/cut$cut.$kind"
		check_reject bfs "$tmp/cut$cut.$kind" "[0-9]*" "truncated $kind data$"
	done
	for off in $((len / 3)) $((len / 2)) $((2 * len / 3)); do
		cp "$src" "$tmp/flip$off.$kind"
		flip "$tmp/flip$off.$kind" "$off"
		check_reject bfs "$tmp/flip$off.$kind" "[0-9]*" "corrupt $kind data$"
	done
	{ cat "$src"; printf 'garbage after the stream\n'; } >"$tmp/trail.$kind"
	check_reject bfs "$tmp/trail.$kind" "[0-9]*" "corrupt $kind data$"
}

for f in ring.gr ring.txt; do
	xz -c "$tmp/$f" >"$tmp/$f.xz"
	gzip -c "$tmp/$f" >"$tmp/$f.gz"
	accept bfs "$f.xz"
	accept bfs "$f.gz"
	accept sssp "$f.gz"
done
# Members one after another are one stream (as `cat a.gz b.gz` is for gzip).
head -n 1500 "$tmp/ring.txt" | gzip -c >"$tmp/two.txt.gz"
tail -n +1501 "$tmp/ring.txt" | gzip -c >>"$tmp/two.txt.gz"
accept bfs two.txt.gz
out=$("$build/bin/bfs" --input "$tmp/two.txt.gz" 2>&1)
grep -q "snap graph: 3000 nodes, 6000 arcs" <<<"$out" ||
	{ echo "FAIL: two gzip members did not give the whole ring: $out"; fail=1; }

damaged xz "$tmp/ring.gr.xz"
damaged gz "$tmp/ring.gr.gz"
damaged gz "$tmp/ring.txt.gz"

# Well-compressed malformed text is the text's error, with its line.
printf 'p tw 3 2\n1 2\n2 9\n' | xz -c >"$tmp/range.gr.xz"
check_reject bfs "$tmp/range.gr.xz" 3 "edge endpoint '9'"
printf '1 2\n2 x\n' | gzip -c >"$tmp/word.txt.gz"
check_reject bfs "$tmp/word.txt.gz" 2 "target id 'x'"
: | gzip -c >"$tmp/empty.gz"
check_reject bfs "$tmp/empty.gz" 1 "no graph in the file"
exit $fail
