# SPDX-License-Identifier: MIT
# contrib/kernel/fwload.config merges with the kernel's own
# scripts/kconfig/merge_config.sh into an ARCH=um defconfig of the test
# kernel's source, and every setting in it survives make olddefconfig (an
# option that does not exist, or whose dependencies are missing, would be
# dropped there). Every option it names, settings and "# want:" advice alike,
# exists in the source's Kconfig files.
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need make gcc flex bison

frag=$REPO/contrib/kernel/fwload.config
ls /usr/src/linux-source-6.12.tar.* >/dev/null 2>&1 ||
	skip "no /usr/src/linux-source-6.12.tar.* (test/deps.sh kernel installs it)"
src=$(sh "$REPO/test/kernel/build.sh" --src 2>"$T/out") || fail "test/kernel/build.sh --src: $(cat "$T/out")"
[ -x "$src/scripts/kconfig/merge_config.sh" ] || fail "no merge_config.sh in $src"

grep -o '^\(# want: \)\{0,1\}CONFIG_[A-Z0-9_]*' "$frag" | sed 's/.*CONFIG_//' | sort -u >"$T/names"
[ -s "$T/names" ] || fail "no options in $frag"
while IFS= read -r o; do
	grep -rqs --include='Kconfig*' "^[[:space:]]*\(menu\)\{0,1\}config $o\$" "$src" || echo "$o"
done <"$T/names" >"$T/unknown"
[ -s "$T/unknown" ] && fail "options not in the kernel's Kconfig: $(cat "$T/unknown")"

O=$T/build
make -s -C "$src" O="$O" ARCH=um defconfig >"$T/out" 2>&1 || fail "make defconfig: $(cat "$T/out")"
(cd "$O" && sh "$src/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" "$frag") >"$T/out" 2>&1 ||
	fail "merge_config.sh: $(cat "$T/out")"
make -s -C "$src" O="$O" ARCH=um olddefconfig >"$T/out" 2>&1 || fail "make olddefconfig: $(cat "$T/out")"
grep '^CONFIG_' "$frag" | while IFS= read -r line; do
	grep -qxF -- "$line" "$O/.config" || echo "$line (now: $(grep "^${line%%=*}=\|^# ${line%%=*} is not set" "$O/.config"))"
done >"$T/dropped"
[ -s "$T/dropped" ] && fail "settings lost after olddefconfig: $(cat "$T/dropped")"
echo "note: $(grep -c '^CONFIG_' "$frag") settings kept after merge_config.sh + olddefconfig (ARCH=um, $(basename "$src"))"
