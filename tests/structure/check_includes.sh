#!/usr/bin/env bash
# check_includes.sh SRC_ROOT - the walls between the project's parts, checked
# from the sources (docs/architecture.md, "Modules"):
#   - a module of libuvmemu/src includes headers of its own folder, of the
#     public include/ folder, and of the modules libuvmemu/src/modules.txt
#     lets it depend on; never another module's private header (*_int.h,
#     testing.h);
#   - the command (libuvmemu/tools) includes what its table line says;
#   - a benchmark (bench/) includes uvmemu_bench.h, public headers, its own
#     folder's and common's tables (*.def), nothing else of the library;
#   - emu-gpu and workloads include public headers only (and their own, and
#     workloads' shared ones).
# Prints one line per include across a wall and exits 1; 0 and a count
# otherwise. Quoted includes only: system headers are <...>.
set -eu
root=${1:?usage: check_includes.sh SRC_ROOT}
cd "$root"
table=libuvmemu/src/modules.txt
[ -r "$table" ] || { echo "check_includes: no $table under $root" >&2; exit 2; }

declare -A deps kind
while read -r name k rest; do
	case $name in '' | \#*) continue ;; esac
	kind[$name]=$k
	deps[$name]=" $rest "
done <"$table"
# Outside libuvmemu/src: the command may use these modules' faces.
deps[tools]=" common front mm policy model obs objects emu "

# Which module holds header h ("" if none; "public" for include/). A
# module may keep kinds of one thing in subfolders (policy/evict, ...).
declare -A home
for m in "${!kind[@]}"; do
	while read -r f; do
		home[${f##*/}]=$m
	done < <(find "libuvmemu/src/$m" -name '*.h' -o -name '*.def')
done
# Sets `at` (no subshell: the check runs once per include).
where() {
	if [ -e "libuvmemu/include/$1" ]; then at=public; else at=${home[$1]:-}; fi
}

private() {
	case $1 in *_int.h | testing.h) return 0 ;; esac
	return 1
}

# A workload's own header (workloads/*/h): code built on public headers,
# which benchmarks and other workloads may share.
workload_header() {
	compgen -G "workloads/*/$1" >/dev/null
}

bad=0 checked=0
say() {
	echo "$1"
	bad=$((bad + 1))
}

# inc[FILE]: the quoted headers FILE includes, read by one awk over every
# file checked below (a process per file made the check take seconds).
declare -A inc
while IFS=$'\t' read -r f h; do
	inc[$f]+=" $h"
done < <(find libuvmemu/src libuvmemu/tools bench emu-gpu workloads \
	\( -name '*.[ch]' -o -name '*.cu' \) -print0 2>/dev/null |
	xargs -0 awk 'match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/) {
		h = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", h); sub(/"$/, "", h)
		print FILENAME "\t" h }')

check_module_file() {
	local m=$1 f=$2 h at
	for h in ${inc[$f]:-}; do
		checked=$((checked + 1))
		[ -e "${f%/*}/$h" ] && continue
		where "${h##*/}"
		case $at in
		public | "$m") continue ;;
		"") say "$f: includes \"$h\", which no module holds" ; continue ;;
		esac
		if [[ ${deps[$m]} != *" $at "* ]]; then
			say "$f: includes \"$h\" of module $at, which $m may not depend on ($table)"
		elif private "$h"; then
			say "$f: includes \"$h\", a private header of module $at"
		fi
	done
}

for m in "${!kind[@]}"; do
	while read -r f; do
		check_module_file "$m" "$f"
	done < <(find "libuvmemu/src/$m" -name '*.[ch]')
done
for f in libuvmemu/tools/*.[ch]; do
	[ -e "$f" ] && check_module_file tools "$f"
done

# Benchmarks: their own folder, public headers, uvmemu_bench.h, common's tables.
while read -r f; do
	for h in ${inc[$f]:-}; do
		checked=$((checked + 1))
		[ -e "${f%/*}/$h" ] && continue
		case $h in uvmemu_bench.h) continue ;; esac
		[ -e "libuvmemu/include/$h" ] && continue
		[ -e "emu-gpu/include/$h" ] && continue
		[[ $h == *.def && -e libuvmemu/src/common/$h ]] && continue
		workload_header "$h" && continue
		say "$f: includes \"$h\" of the library's insides: a benchmark includes uvmemu_bench.h"
	done
done < <(find bench -name '*.[ch]' 2>/dev/null)

# The executor and the workloads: public headers only.
while read -r f; do
	for h in ${inc[$f]:-}; do
		checked=$((checked + 1))
		[ -e "${f%/*}/$h" ] && continue
		[ -e "libuvmemu/include/$h" ] && continue
		[ -e "emu-gpu/include/$h" ] && continue
		[ -e "workloads/common/$h" ] && continue
		case $f in emu-gpu/*) [ -e "emu-gpu/src/$h" ] && continue ;; esac
		case $f in workloads/*) workload_header "$h" && continue ;; esac
		say "$f: includes \"$h\", not a public header (libuvmemu/include, emu-gpu/include)"
	done
done < <(find emu-gpu workloads -name '*.[ch]' -o -name '*.cu' 2>/dev/null)

if [ "$bad" -gt 0 ]; then
	echo "check_includes: $bad include(s) across a wall, of $checked"
	exit 1
fi
echo "check_includes: $checked includes, every one within the walls"
