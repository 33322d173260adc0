#!/usr/bin/env bash
# Description: wrong options to backprop, nw, atax and the second wave's
# workloads each print exactly one line that names the offending option, and
# exit with status 2.
# usage: bad-options.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
# The runtime's end-of-run summary stays on: after a usage error the workload
# tells the runtime to print none, so the error is the run's only line.
fail=0

# expect_error WORKLOAD NAMED ARGS...: the run must exit 2 and print one line
# (stdout and stderr together) that contains NAMED.
expect_error() {
	local name=$1 named=$2 out rc lines
	shift 2
	out=$("$build/bin/$name" "$@" 2>&1)
	rc=$?
	lines=$(printf '%s' "$out" | grep -c '')
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$named" <<<"$out"; then
		echo "FAIL: $name $*: exit $rc, $lines lines, expected exit 2 and one line naming '$named':"
		echo "$out"
		fail=1
	else
		echo "ok: $name $*: $out"
	fi
}

for name in backprop nw atax fft fft-1d fwt spmv 3dconv gemm bicg mvt; do
	[ -x "$build/bin/$name" ] || { echo "FAIL: $build/bin/$name not built"; exit 1; }
	expect_error $name --bogus --bogus
	expect_error $name --footprint --footprint 12Q
	expect_error $name --footprint --footprint 0
	expect_error $name --footprint --footprint 3
	expect_error $name --footprint --footprint 64T
	expect_error $name --footprint --footprint
	expect_error $name --seed --seed -3
done

expect_error backprop --inputs --inputs 17
expect_error backprop --inputs --inputs abc
expect_error backprop --inputs --inputs 0
expect_error backprop --inputs --inputs 134217728
expect_error backprop --inputs --inputs 1024 --footprint 24M

expect_error nw --n --n 100
expect_error nw --n --n -16
expect_error nw --n --n 65536
expect_error nw --n --footprint 24M --n 1440
expect_error nw --penalty --penalty x
expect_error nw --penalty --penalty -1
expect_error nw --penalty --penalty 10001
expect_error nw 2048 2048

expect_error atax --nx --nx 0
expect_error atax --ny --ny 12.5
expect_error atax --nx --nx 2097152
expect_error atax --nx --nx 65536 --ny 65536
expect_error atax --ny --footprint 24M --ny 1024

expect_error fft --ffts --ffts 0
expect_error fft --iterations --iterations x
expect_error fft --ffts --footprint 24M --ffts 16
expect_error fwt --log2-data --log2-data 1
expect_error fwt --log2-data --log2-data 29
expect_error fwt --log2-kernel --log2-data 5 --log2-kernel 6
expect_error fwt --batch --batch 65536
expect_error fwt --batch --footprint 24M --batch 2
expect_error spmv --rows --rows 0
expect_error spmv --reps --reps 0
expect_error spmv --row-nnz --row-nnz 2000
expect_error spmv /nonexistent/a.mtx --input /nonexistent/a.mtx
expect_error spmv --input --rows 100 --input /nonexistent/a.mtx
expect_error 3dconv --ni --ni 2
expect_error 3dconv --nk --ni 2048 --nj 2048 --nk 2048
expect_error 3dconv --ni --footprint 24M --ni 100
expect_error gemm --nk --nk 0
expect_error gemm --ni --ni 65536 --nk 65536
expect_error gemm --ni --footprint 24M --ni 100
expect_error bicg --nx --nx 12.5
expect_error bicg --ny --nx 65536 --ny 65536
expect_error mvt --n --n 46341
expect_error mvt --n --footprint 24M --n 100

for name in gaussian lud sgemm sgemm-nn gauss-seidel kmeans nn cfd; do
	[ -x "$build/bin/$name" ] || { echo "FAIL: $build/bin/$name not built"; exit 1; }
	expect_error $name --bogus --bogus
	expect_error $name --footprint --footprint 12Q
	expect_error $name --footprint --footprint 0
	expect_error $name --footprint --footprint 64T
	expect_error $name --seed --seed -3
	expect_error $name --output --output /nonexistent-dir/out
done

expect_error gaussian --size --size 1
expect_error gaussian --size --size 46341
expect_error gaussian --size --size 1024 --footprint 24M
expect_error gaussian --steps --size 100 --steps 100
expect_error gaussian --steps --steps -1
expect_error gaussian --footprint --footprint 3

expect_error lud --size --size 1000
expect_error lud --size --size 16
expect_error lud --size --size 512 --footprint 24M
expect_error lud --steps --size 512 --steps 32
expect_error lud --footprint --footprint 1K

expect_error sgemm --m --m 100
expect_error sgemm --n --n 24
expect_error sgemm --k --k 12
expect_error sgemm --m --m 1024 --footprint 24M
expect_error sgemm --k --k 0
expect_error sgemm --footprint --footprint 3
expect_error sgemm --footprint --footprint 100K --k 4096

expect_error fft-1d --n --n 1000
expect_error fft-1d --n --n 256
expect_error fft-1d --footprint --footprint 1K
expect_error fft-1d --n --n 1024 --footprint 64M
expect_error fft-1d --iterations --iterations 0

expect_error sgemm-nn --m --m 200
expect_error sgemm-nn --n --n 100
expect_error sgemm-nn --k --k 12
expect_error sgemm-nn --m --m 1024 --footprint 24M
expect_error sgemm-nn --footprint --footprint 3
expect_error sgemm-nn --footprint --footprint 100K --k 4096

expect_error gauss-seidel --n --n 2
expect_error gauss-seidel --n --n 1024 --footprint 24M
expect_error gauss-seidel --iterations --iterations 0
expect_error gauss-seidel --iterations --iterations x

expect_error kmeans --points --points 0
expect_error kmeans --threshold --threshold 1.5
expect_error kmeans --threshold --threshold nan
expect_error kmeans --clusters --points 4 --clusters 5
expect_error kmeans --max-iterations --max-iterations 501
expect_error kmeans --points --points 1000 --footprint 24M

expect_error nn --records --records 0
expect_error nn --results --results 0
expect_error nn --lat --lat north
expect_error nn --input --input x.db --records 100
expect_error nn --footprint --footprint 11

expect_error cfd --elements --elements 999
expect_error cfd --elements --elements 100000 --footprint 24M
expect_error cfd --iterations --iterations 0
expect_error cfd --footprint --footprint 64K

exit $fail
