#!/usr/bin/env bash
# Description: five of the workloads the SC'19 experiment (10) runs verify
# under every object manager at 1.5x oversubscription: each is profiled once
# at its small test size, then run with --objects copy, prefetch, host, lru,
# rlm, glm and rdm from that profile; the report must say verify pass and
# name the scheme that ran. The experiment's two stencils, hotspot and
# srad_v2, are left out: two fifths of the test's time, and bfs and kmeans
# plan more launches. At 8 MiB (the workloads' test sizes take twice as
# long); cfd at 16 and one iteration (10 launches): at 8 its device memory
# holds under three vablocks, and its gather over the mesh thrashed them
# (91 GiB moved under --objects copy, 36 s a run).
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
for w in backprop bfs cfd kmeans nn; do
	[ -x "$build/bin/$w" ] || { echo "skip: $w is not built"; continue; }
	args="--footprint 8M"
	[ $w = cfd ] && args="--footprint 16M --iterations 1"
	# shellcheck disable=SC2086 # the arguments are words
	"$build/bin/uvmemu" profile --out "$dir/$w.prof" --summary off -- "$build/bin/$w" $args --quiet \
		>/dev/null || { echo "FAIL: uvmemu profile $w"; fails=$((fails + 1)); continue; }
	for s in copy prefetch host lru rlm glm rdm; do
		# shellcheck disable=SC2086
		"$build/bin/uvmemu" run --oversub 1.5 --objects $s --objects-profile "$dir/$w.prof" \
			--summary off --report "$dir/r.json" -- "$build/bin/$w" $args --quiet >/dev/null
		rc=$?
		if [ $rc -ne 0 ] || ! grep -q '"verify": "pass"' "$dir/r.json" ||
			! grep -q "\"objects\": \"$s\"" "$dir/r.json"; then
			echo "FAIL: $w under --objects $s (exit $rc)"; fails=$((fails + 1))
		else
			echo "ok: $w --objects $s"
		fi
	done
done
[ $fails -eq 0 ]
