#!/usr/bin/env bash
# deps.sh - install what the build and tests need on Debian 12, if missing.
# Sourced by demo.sh and test.sh; needs root (or sudo) only when something
# is missing.
uvmemu_deps() {
	local pkgs=(build-essential clang cmake ninja-build pkg-config liburing-dev libnuma-dev
		libhwloc-dev liblzma-dev zlib1g-dev libcmocka-dev gnuplot-nox parallel jq xz-utils gzip)
	uvmemu_install "${pkgs[@]}"
}

# uvmemu_configure DIR CMAKE_ARGS...: configure a build folder, with Ninja
# when the folder is new and ninja is here. Ninja builds this tree in two
# thirds of make's time on a 2-core machine (make starts a process per
# directory and step); a folder keeps the generator it was made with, which
# cmake refuses to change. With CC set, a folder configured with another
# compiler starts afresh: cmake would keep its compiler and ignore CC.
uvmemu_configure() {
	local dir=$1 gen=() had
	shift
	if [ -n "${CC:-}" ] && [ -f "$dir/CMakeCache.txt" ]; then
		had=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
		if [ "$(readlink -f "$had")" != "$(readlink -f "$(command -v "$CC")")" ]; then
			echo "uvmemu: $dir was configured with $had; configuring it afresh with $CC" >&2
			rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
		fi
	fi
	if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
		gen=(-G Ninja)
	fi
	cmake -S . -B "$dir" "${gen[@]}" "$@"
}

# The README's build (demo.sh, test.sh): clang, kernels counting their
# basic blocks, so that a run's GPU time at --dilation auto is the same in
# every run, however busy the machine (README, "The time model"). Clang counts after vectorizing;
# GCC's counting stops loops vectorizing (3-18x slower kernels).
uvmemu_configure_main() {
	CC=clang uvmemu_configure build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMUGPU_COUNT_BLOCKS=ON "$@"
}

# The fuzz build (tests/fuzz): clang with libFuzzer and the sanitizers'
# runtimes.
uvmemu_deps_fuzz() {
	uvmemu_install clang libclang-rt-dev
}

uvmemu_install() {
	local pkgs=("$@")
	local missing=()
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "uvmemu: installing ${missing[*]}"
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null || {
		echo "uvmemu: could not install ${missing[*]} (run as root on Debian 12)" >&2
		return 1
	}
}
