#!/usr/bin/env bash
# Description: `uvmemu plot DIR` draws the four figures of a tiny traced run
# (with and without faults.csv) as real PNG files (8-byte signature, a
# minimum size) and SVG files; `uvmemu plot --compare` draws two tiny
# reports; bad input (missing directory, missing or malformed CSV, unreadable
# or foreign JSON, no gnuplot in PATH) gives a one-line error naming the file
# and exit status 2, and writes no figure.
set -u
build=$(cd "$1" && pwd)
uvmemu=$build/bin/uvmemu
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox)"; exit 77; }
"$uvmemu" info >/dev/null 2>&1 || { echo "SKIP: userfaultfd is not usable here (uvmemu info)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run() { # NAME EXTRA-OPTIONS... : a tiny oversubscribed ra run, report and traces
	local name=$1
	shift
	"$uvmemu" run --oversub 1.25 --summary off --report "$dir/$name.json" "$@" -- \
		"$build/bin/ra" --footprint 4M --updates 4000 --quiet >"$dir/$name.out" 2>&1 ||
		{ echo "FAIL: the run $name failed:"; cat "$dir/$name.out"; exit 1; }
}

is_png() { # FILE: the PNG signature and more than a header's worth of bytes
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(stat -c %s "$1")" -ge 2000 ]
}
is_svg() {
	[ "$(stat -c %s "$1")" -ge 1000 ] && grep -q '<svg' "$1" && tail -c 20 "$1" | grep -q '</svg>'
}
check_figures() { # DIR FIGURE...
	local d=$1 f
	shift
	for f in "$@"; do
		is_png "$d/$f.png" || fail "$d/$f.png is not a PNG of at least 2000 bytes"
		is_svg "$d/$f.svg" || fail "$d/$f.svg is not a complete SVG"
	done
}

# --- figures from traces, with per-fault outcomes and without
run faults --trace "$dir/tf" --trace-faults on
run plain --trace "$dir/tp" --migrate adaptive
for t in tf tp; do
	if "$uvmemu" plot "$dir/$t" >"$dir/$t.log" 2>&1; then
		check_figures "$dir/$t" access_pattern batch_stages batch_cost alloc_freq
		[ "$(grep -c '^wrote ' "$dir/$t.log")" -eq 8 ] || fail "plot $t did not report 8 files written"
	else
		fail "uvmemu plot $t failed: $(cat "$dir/$t.log")"
	fi
done
# Tree prefetching brings most blocks unasked: under one fault per block on
# average, the allocation figure must still draw (it once found nothing above
# its axis's fixed floor of 0.5).
"$uvmemu" run --prefetch tree --summary off --trace "$dir/tt" -- "$build/bin/vecadd" --footprint 8M \
	--quiet >"$dir/tt.out" 2>&1 || { echo "FAIL: the prefetching run failed:"; cat "$dir/tt.out"; exit 1; }
if "$uvmemu" plot "$dir/tt" >"$dir/tt.log" 2>&1; then
	check_figures "$dir/tt" alloc_freq
else
	fail "uvmemu plot of a prefetching run failed: $(cat "$dir/tt.log")"
fi
grep -q 'from faults.csv' "$dir/tf/access_pattern.svg" || fail "the faults figure does not say its source"
grep -q 'from accesses.csv' "$dir/tp/access_pattern.svg" || fail "the accesses figure does not say its source"
grep -q '^batch cost fit: ' "$dir/tf.log" || fail "no batch cost fit reported"

# --- compare two reports
if (cd "$dir" && "$uvmemu" plot --compare faults.json plain.json >cmp.log 2>&1); then
	check_figures "$dir" compare
	grep -q 'migrate=adaptive' "$dir/cmp.log" || fail "the compare labels do not name the differing option"
else
	fail "uvmemu plot --compare failed: $(cat "$dir/cmp.log")"
fi
"$uvmemu" plot --compare --out "$dir/sub/c2" "$dir/faults.json" >/dev/null 2>&1 &&
	fail "--compare into a missing directory succeeded"

# --- bad input: one line on stderr naming the file, exit 2, no figure
bad() { # WHAT FILE-NAMED-IN-ERROR COMMAND...
	local what=$1 named=$2 rc
	shift 2
	"$@" >"$dir/bad.out" 2>"$dir/bad.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$what: exit status $rc, not 2"
	[ "$(wc -l <"$dir/bad.err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$dir/bad.err")"
	grep -qF "$named" "$dir/bad.err" || fail "$what: the error does not name $named: $(cat "$dir/bad.err")"
}
mk() { rm -rf "$dir/b"; mkdir "$dir/b"; cp "$dir"/tf/*.csv "$dir/b/"; }
bad "missing directory" "$dir/nope" "$uvmemu" plot "$dir/nope"
mk; rm "$dir/b/kernels.csv"
bad "missing kernels.csv" kernels.csv "$uvmemu" plot "$dir/b"
mk; echo "7,batch,0.5" >>"$dir/b/batches.csv"
bad "short batches.csv row" batches.csv "$uvmemu" plot "$dir/b"
mk; sed -i '2s/^[^,]*,/zzz,/' "$dir/b/faults.csv"
bad "non-numeric time in faults.csv" faults.csv "$uvmemu" plot "$dir/b"
mk; printf 'launch,kernel\n' >"$dir/b/accesses.csv"
bad "accesses.csv without its columns" accesses.csv "$uvmemu" plot "$dir/b"
ls "$dir"/b/*.png >/dev/null 2>&1 && fail "bad input still wrote figures"
bad "missing report" "$dir/none.json" "$uvmemu" plot --compare "$dir/none.json"
head -c 200 "$dir/faults.json" >"$dir/cut.json"
bad "truncated report" cut.json "$uvmemu" plot --compare "$dir/faults.json" "$dir/cut.json"
echo '{"schema": 1}' >"$dir/foreign.json"
bad "JSON that is not a report" foreign.json "$uvmemu" plot --compare "$dir/foreign.json"
printf 'not json\n' >"$dir/text.json"
bad "not JSON at all" text.json "$uvmemu" plot --compare "$dir/text.json"
bad "no gnuplot in PATH" gnuplot-nox env PATH=/nonexistent "$uvmemu" plot "$dir/tf"

[ $fails -eq 0 ] || exit 1
echo "plots drawn; bad input rejected"
