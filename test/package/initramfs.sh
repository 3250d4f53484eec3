# SPDX-License-Identifier: MIT
# make initramfs.list / initramfs.cpio: what runs (no man pages or
# documentation), the C programs stripped, every file the list names inside
# initramfs/ (not the .stage/ of old), the archive holding exactly the
# list's entries, and make clean removing list, archive and directory
# together.
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need make cpio strip

copy_tree "$T/src"
src=$T/src
make -s -C "$src" initramfs.list initramfs.cpio >"$T/out" 2>&1 || fail "make initramfs.list initramfs.cpio: $(cat "$T/out")"
list=$src/initramfs.list
[ -s "$list" ] || fail "empty initramfs.list"
grep -q '\.stage' "$list" && fail "the list points into .stage/: $(grep '\.stage' "$list")"
grep -q '/share/' "$list" && fail "man pages or documentation in the initramfs: $(grep '/share/' "$list")"

while read -r kind name source _; do
	case $kind in
	file)
		case $source in "$src/initramfs/"*) ;; *) fail "$name comes from $source, outside $src/initramfs/" ;; esac
		[ -f "$source" ] || fail "the list names $source, which does not exist"
		;;
	dir | slink) ;;
	*) fail "unexpected list entry: $kind $name" ;;
	esac
	echo "${name#/}"
done <"$list" | LC_ALL=C sort >"$T/listed"
(cd "$T" && cpio -it --quiet <"$src/initramfs.cpio" | LC_ALL=C sort) >"$T/archived"
diff "$T/listed" "$T/archived" >"$T/diff" || fail "initramfs.cpio differs from initramfs.list: $(cat "$T/diff")"

# The C programs, where the default install puts them.
for p in $(make -s -C "$src" print-INSTALLED_C); do
	f=$src/initramfs$p
	grep -q "^file $p $f 0755 " "$list" || fail "no $p in the list"
	strip -o "$T/stripped" "$f" || fail "strip $f failed"
	cmp -s "$f" "$T/stripped" || fail "$p is not stripped ($(wc -c <"$f") bytes, stripped $(wc -c <"$T/stripped"))"
	echo "note: $p $(wc -c <"$f") bytes, stripped"
done

make -s -C "$src" clean >"$T/out" 2>&1 || fail "make clean: $(cat "$T/out")"
for f in initramfs.list initramfs.cpio initramfs; do
	[ -e "$src/$f" ] && fail "make clean left $f"
done
exit 0
