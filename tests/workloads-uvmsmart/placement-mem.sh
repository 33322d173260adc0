#!/usr/bin/env bash
# Description: UVMSmart's placements (bfs --over device, srad_v2 --scratch
# device, backprop --adjust-copy, as us-bfs, us-srad_v2 and us-backprop set
# them) together with the dual-source workloads' --mem: explicit, prefetch
# and advise each verify natively and under the emulator, with --output the
# same as the managed run's, and under explicit the emulator counts no fault
# (the device-memory arrays stay outside the managed data in every mode).
# usage: placement-mem.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

value() { sed -n "s/^  \"$1\": \([0-9]*\),\{0,1\}$/\1/p" "$2"; }
check() { # check WHAT CONDITION
	if ! eval "$2"; then echo "FAIL: $1"; fails=$((fails + 1)); fi
}

while read -r name args; do
	bin=$build/bin/us-$name
	if ! "$bin" $args --quiet --output "$tmp/$name" >/dev/null 2>&1; then
		echo "FAIL: us-$name $args: managed run"
		fails=$((fails + 1))
		continue
	fi
	for m in explicit prefetch advise; do
		out=$("$bin" $args --quiet --mem $m --output "$tmp/$name.$m" 2>&1)
		check "us-$name native --mem $m does not verify: $out" \
			'grep -q "^us-$name: verify pass" <<<"$out"'
		check "us-$name native --mem $m: --output differs from managed" \
			'cmp -s "$tmp/$name" "$tmp/$name.$m"'
		[ -x "$build/bin/uvmemu" ] || continue
		r=$tmp/$name.$m.json
		out=$("$build/bin/uvmemu" run --check 1 --summary off --report "$r" -- "$bin" $args \
			--quiet --mem $m --output "$tmp/$name.emu-$m" 2>&1)
		check "us-$name emulated --mem $m does not verify: $out" \
			'grep -q "\"verify\": \"pass\"" "$r"'
		check "us-$name emulated --mem $m: --output differs from managed" \
			'cmp -s "$tmp/$name" "$tmp/$name.emu-$m"'
		if [ $m = explicit ]; then
			check "us-$name explicit: faults on managed memory" \
				'[ "$(value gpu_faults "$r")" = 0 ] && [ "$(value cpu_faults "$r")" = 0 ]'
		fi
		echo "us-$name $args --mem $m: verified natively and emulated"
	done
done <<'EOT'
bfs --nodes 20000
srad_v2 --rows 256 --cols 256
backprop --inputs 32768
EOT
exit $((fails > 0))
