#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the arm64 test kernel (qemu's "virt" machine) from Debian's
# linux-source package with Debian's cross compiler.
#
#   test/arm64/build.sh            build (or reuse) the kernel, print the Image's path
#
# The configuration is "make ARCH=arm64 allnoconfig" plus two fragments,
# test/arm64/kernel.config (the board) and contrib/kernel/fwload.config (what
# fwload needs), merged by the kernel's scripts/kconfig/merge_config.sh; every
# setting of both must survive as written. The source tree is the one
# test/kernel/build.sh extracts (so it holds that layer's test driver too).
# The Image is cached in $FWLOAD_CACHE (default ~/.cache/fwload), keyed by the
# source package version, the settings of both fragments, the compiler's
# version and the test driver, so a second run costs nothing. Progress goes
# to stderr, the path to stdout.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
pkg=linux-source-6.12
cache=${FWLOAD_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/fwload}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cross=aarch64-linux-gnu-
fragments="$here/kernel.config $repo/contrib/kernel/fwload.config"
driver=$repo/test/kernel/driver/fwload_stress.c

say() { printf 'arm64 kernel: %s\n' "$*" >&2; }
die() { printf 'arm64 kernel: %s\n' "$*" >&2; exit 1; }

# Bump when the recipe below changes in a way that changes the kernel.
recipe=1

command -v "${cross}gcc" >/dev/null || die "${cross}gcc is missing (apt-get install gcc-aarch64-linux-gnu)"
version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || die "$pkg is not installed"
# The settings of both fragments (kconfig reads "# CONFIG_X is not set" as
# one too); their comments do not change the kernel.
# shellcheck disable=SC2086 # the fragment list, paths without blanks
settings=$(grep -hE '^CONFIG_|^# CONFIG_[A-Za-z0-9_]+ is not set$' $fragments)
key=$(printf '%s\n' "$version" "$recipe" "$("${cross}gcc" --version | head -n 1)" \
	"$settings" "$(cksum <"$driver")" | cksum | cut -d' ' -f1)
out="$cache/linux-arm64-$version-$key.Image"
if [ -f "$out" ]; then
	printf '%s\n' "$out"
	exit 0
fi

# One build at a time (two layers may ask at once); the source is extracted
# (or found) by the UML layer's script.
mkdir -p "$cache"
exec 9>"$cache/build-arm64.lock"
flock 9
if [ -f "$out" ]; then
	printf '%s\n' "$out"
	exit 0
fi
src=$(sh "$repo/test/kernel/build.sh" --src)

# One build tree per source version, kept: a change to a fragment rebuilds
# only what it touches.
build="$cache/build-arm64-$version"
mkdir -p "$build"
say "configuring ARCH=arm64 allnoconfig + test/arm64/kernel.config contrib/kernel/fwload.config"
# shellcheck disable=SC2086 # the fragment list
(cd "$src" && ARCH=arm64 CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -n -O "$build" $fragments) \
	>"$build/config.log" 2>&1 || {
	tail -n 20 "$build/config.log" >&2
	die "merge_config.sh failed, full log: $build/config.log"
}
printf '%s\n' "$settings" | while IFS= read -r want; do
	grep -qxF -- "$want" "$build/.config" && continue
	o=${want#\# }
	o=${o%%[= ]*}
	die "$want did not survive (a missing dependency?): $(grep -E "^$o=|^# $o is not set" "$build/.config" || echo "$o is not in .config")"
done || exit 1

say "building Image with make -j$jobs (about 10 minutes on 2 cores; once per input change)"
start=$(date +%s)
make -C "$src" O="$build" ARCH=arm64 CROSS_COMPILE=$cross -j"$jobs" Image >"$build/build.log" 2>&1 || {
	tail -n 40 "$build/build.log" >&2
	die "build failed, full log: $build/build.log"
}
say "built in $(( $(date +%s) - start )) s"
cp "$build/arch/arm64/boot/Image" "$out.tmp"
cp "$build/.config" "$out.config"
mv "$out.tmp" "$out"
printf '%s\n' "$out"
