#!/usr/bin/env bash
# Description: a dual-source workload's other --mem configurations at its
# small test size: explicit, prefetch and advise each verify natively and
# under the emulator, with --output the same as the managed run's; under
# the emulator explicit moves its data by cudaMemcpy alone (no managed
# memory, no fault), prefetch by cudaMemPrefetchAsync (blocks the API
# prefetched), and advise, in a workload with read-mostly hints, keeps
# copies on both sides (duplicated blocks). An unknown --mem is one line,
# exit 2.
# usage: mem.sh BUILD_DIR SOURCE_DIR WORKLOAD
set -u
build=$1 src=$2 name=$3
bin=$build/bin/$name
args=$(cat "$src/workloads/$name/test-args")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# shellcheck source=../expect_error.sh
. "$src/tests/expect_error.sh"

value() { sed -n "s/^  \"$1\": \([0-9]*\),\{0,1\}$/\1/p" "$2"; }
check() { # check WHAT CONDITION
	if ! eval "$2"; then echo "FAIL: $1"; fails=$((fails + 1)); fi
}

"$bin" $args --quiet --output "$tmp/managed" >/dev/null 2>&1 || { echo "FAIL: managed run"; exit 1; }
for m in explicit prefetch advise; do
	out=$("$bin" $args --quiet --mem $m --output "$tmp/$m" 2>&1)
	check "native --mem $m does not verify: $out" 'grep -q "^$name: verify pass" <<<"$out"'
	check "native --mem $m: --output differs from managed" 'cmp -s "$tmp/managed" "$tmp/$m"'
	[ -x "$build/bin/uvmemu" ] || continue
	r=$tmp/$m.json
	out=$("$build/bin/uvmemu" run --check 1 --summary off --report "$r" -- "$bin" $args --quiet \
		--mem $m --output "$tmp/emu-$m" 2>&1)
	check "emulated --mem $m does not verify: $out" 'grep -q "\"verify\": \"pass\"" "$r"'
	check "emulated --mem $m: --output differs from managed" 'cmp -s "$tmp/managed" "$tmp/emu-$m"'
	case $m in
	explicit)
		check "explicit: no cudaMemcpy bytes" '[ "$(value memcpy_bytes_h2d "$r")" -gt 0 ] && [ "$(value memcpy_bytes_d2h "$r")" -gt 0 ]'
		check "explicit: faults on managed memory" '[ "$(value gpu_faults "$r")" = 0 ] && [ "$(value cpu_faults "$r")" = 0 ]'
		;;
	prefetch)
		check "prefetch: no block prefetched by the API" '[ "$(value blocks_prefetch_api "$r")" -gt 0 ]'
		check "prefetch: cudaMemcpy bytes" '[ "$(value memcpy_bytes_h2d "$r")" = 0 ]'
		;;
	advise)
		if grep -q WL_READ_MOSTLY "$src/workloads/$name"/*.c; then
			check "advise: no block duplicated by read-mostly" '[ "$(value blocks_duplicated "$r")" -gt 0 ]'
		fi
		;;
	esac
	echo "--mem $m: verified natively and emulated"
done
expect 2 "^$name: --mem 'bogus': accepted values are managed, explicit, prefetch, advise$" "$bin" $args --mem bogus
exit $((fails > 0))
