#!/usr/bin/env bash
# Description: `uvmemu profile` is exact for a crafted three-kernel program
# (threek: four launches over four allocations with known touched blocks):
# the profile lists every object, every launch and, per use, the bytes
# touched (a cut last block counted to the allocation's end), the accesses,
# the density and the reuse distance in launches, exactly as written below;
# the file reads back under --objects; the run's temporary trace directory
# is made under $TMPDIR (a missing one is an error naming it) and removed
# with every file the run wrote there.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
uvmemu=$build/bin/uvmemu
mkdir "$dir/tmp"
TMPDIR=$dir/tmp "$uvmemu" profile --out "$dir/p" --summary off -- "$build/tests/bin/threek" || {
	echo "FAIL: uvmemu profile failed"; exit 1; }
left=$(ls -A "$dir/tmp")
[ -z "$left" ] || { echo "FAIL: uvmemu profile left in TMPDIR: $left"; exit 1; }
# TMPDIR is where it works: one that does not exist is an error naming it
# (the program itself is not run, so no wrapper need run under the preload).
err=$(TMPDIR=$dir/missing "$uvmemu" profile --out "$dir/q" -- "$build/tests/bin/threek" 2>&1)
rc=$?
[ $rc = 1 ] || { echo "FAIL: profile with a missing TMPDIR: exit status $rc, expected 1: $err"; exit 1; }
grep -qF "$dir/missing/uvmemu-profile-" <<<"$err" ||
	{ echo "FAIL: profile with a missing TMPDIR does not name it: $err"; exit 1; }
[ ! -e "$dir/q" ] || { echo "FAIL: profile with a missing TMPDIR wrote a profile"; exit 1; }
cat >"$dir/want" <<'END'
uvmemu-objects 1
object 0 1048576 -
object 1 524288 -
object 2 262244 -
object 3 65536 -
launch 0 one
use 0 0 1048576 16 1.000000 1
use 0 1 262144 4 0.500000 2
launch 1 two
use 1 0 65536 1 0.062500 1
use 1 2 262244 5 1.000000 -
launch 2 three
use 2 0 0 0 0.000000 1
use 2 1 524288 8 1.000000 1
launch 3 one
use 3 0 1048576 16 1.000000 -
use 3 1 262144 4 0.500000 -
END
grep -v '^#' "$dir/p" >"$dir/got"
diff -u "$dir/want" "$dir/got" || { echo "FAIL: the profile differs from the expected one"; exit 1; }
# The managers read it back and the program still verifies.
"$uvmemu" run --objects rdm --objects-profile "$dir/p" --device-mem 2M --summary off \
	-- "$build/tests/bin/threek" >/dev/null || { echo "FAIL: threek under --objects rdm"; exit 1; }
echo "profile exact"
