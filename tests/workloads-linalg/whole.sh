#!/usr/bin/env bash
# Description: gaussian (elimination and back substitution) and lud (every
# block step and the final diagonal block) run to the end and verify at small
# sizes natively; a partial gaussian run writes b instead of x; kmeans run to
# a fixed point (--threshold 0), sgemm, gauss-seidel, nn and cfd write the
# sections their READMEs document with --output, one value per line.
# usage: whole.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
export UVMEMU_SUMMARY=off

# run NAME ARGS... : must exit 0 and print "NAME: verify pass"; the output
# file is $tmp/NAME.out.
run() {
	local name=$1 out rc
	shift
	out=$("$build/bin/$name" "$@" --quiet --output "$tmp/$name.out" 2>&1); rc=$?
	if [ $rc -ne 0 ] || ! grep -q "^$name: verify pass" <<<"$out"; then
		echo "FAIL: $name $*: exit $rc"
		echo "$out"
		fail=1
		return 1
	fi
	echo "ok: $name $*"
}

# section NAME WHAT COUNT: the output of NAME has section WHAT with COUNT
# values, one per line.
section() {
	local f=$tmp/$1.out got
	if ! grep -q "^# section $2 $3\$" "$f"; then
		echo "FAIL: $1: no '# section $2 $3' in its output:"
		grep '^#' "$f"
		fail=1
		return
	fi
	got=$(awk -v s="$2" '/^# section/ { on = ($3 == s); next } on { n++ } END { print n + 0 }' "$f")
	if [ "$got" -ne "$3" ]; then
		echo "FAIL: $1: section $2 has $got lines, expected $3"
		fail=1
	else
		echo "ok: $1 writes $2 ($3 values)"
	fi
}

for name in gaussian lud kmeans sgemm gauss-seidel nn cfd; do
	[ -x "$build/bin/$name" ] || { echo "FAIL: $build/bin/$name not built"; exit 1; }
done

run gaussian --size 300 && section gaussian x 300
run gaussian --size 300 --steps 17 && section gaussian b 300
run lud --size 512 && section lud lu 262144
run kmeans --points 20000 --threshold 0 --clusters 7 --features 9 &&
	section kmeans centres 63 && section kmeans membership 20000
run sgemm --m 256 --n 48 --k 24 && section sgemm C 12288
run gauss-seidel --n 100 --iterations 3 && section gauss-seidel u 10000
run nn --records 5000 --results 7 && section nn record 7 && section nn distance 7
if run cfd --elements 5000 --iterations 3; then
	n=$(grep '^# section density ' "$tmp/cfd.out" | awk '{ print $4 }')
	for s in density momentum_x momentum_y momentum_z density_energy; do
		section cfd $s "$n"
	done
fi
exit $fail
