#!/usr/bin/env bash
# Description: spmv reads SuiteSparse's bcsstk13 (Matrix Market, coordinate
# real symmetric, from the shared data folder), mirrors its off-diagonal
# entries, verifies natively, and its --output y equals A x recomputed from
# the file itself. Skips (77) when the data folder is absent.
# usage: real_input.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
data=$src/../shared/data
file=$data/spmv/bcsstk13.mtx
bin=$build/bin/spmv
export UVMEMU_SUMMARY=off

[ -d "$data" ] || { echo "SKIP: $data not found (real inputs are not in the repository)"; exit 77; }
[ -f "$file" ] || { echo "FAIL: $data exists but spmv/bcsstk13.mtx is missing"; exit 1; }
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$bin" --input "$file" --output "$tmp/out" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
# 42,943 entries of which 2,003 on the diagonal: 2 x 42943 - 2003 stored.
grep -qF "spmv: matrix market: 2003 x 2003, 42943 entries, real symmetric, 83883 stored" <<<"$out" ||
	{ echo "FAIL: the matrix was not read whole"; exit 1; }
grep -q "^spmv: verify pass" <<<"$out" || { echo "FAIL: no 'verify pass' line"; exit 1; }
# y = A x from the file (both triangles) and the x the run wrote, in awk's
# double, against the run's y: within float's rounding of each row's sum.
awk -v outf="$tmp/out" '
	BEGIN {
		while ((getline l < outf) > 0) {
			if (l ~ /^# section/) { split(l, s, " "); sec = s[3]; i = 0; continue }
			if (l ~ /^#/) continue
			i++
			if (sec == "x") x[i] = l + 0; else if (sec == "y") y[i] = l + 0
		}
	}
	/^%/ { next }
	!size { size = 1; n = $1; next }
	{
		r = $1; c = $2; v = $3
		want[r] += v * x[c]; mag[r] += (v * x[c] < 0 ? -v * x[c] : v * x[c])
		if (r != c) { want[c] += v * x[r]; mag[c] += (v * x[r] < 0 ? -v * x[r] : v * x[r]) }
	}
	END {
		bad = 0
		for (r = 1; r <= n; r++) {
			d = y[r] - want[r]; if (d < 0) d = -d
			# 9 significant digits in the file, float sums: 1e-6 of the magnitudes.
			if (d > 1e-6 * mag[r] + 1e-30) { if (bad++ < 5) printf "row %d: y %.9g, A x %.9g\n", r, y[r], want[r] }
		}
		printf "%d of %d rows differ from A x recomputed from the file\n", bad, n
		exit bad != 0
	}' "$file" || { echo "FAIL: y is not A x"; exit 1; }
exit 0
