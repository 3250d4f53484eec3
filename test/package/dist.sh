# SPDX-License-Identifier: MIT
# make dist: fwload-VERSION.tar.gz holds exactly what git tracks under
# fwload-VERSION/, and from a clean directory it builds and installs
# (make, make install DESTDIR=); there, make dist and the git checks say
# why they cannot run.
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need_git
need make tar gzip

tarball=$T/fwload-$VERSION.tar.gz
make -s -C "$REPO" dist DIST_TARBALL="$tarball" >"$T/out" 2>&1 || fail "make dist: $(cat "$T/out")"
[ -s "$tarball" ] || fail "make dist made no $tarball"

tar -tzf "$tarball" | grep -v '/$' | LC_ALL=C sort >"$T/listed"
(cd "$REPO" && git ls-files | sed "s|^|fwload-$VERSION/|" | LC_ALL=C sort) >"$T/tracked"
diff "$T/tracked" "$T/listed" >"$T/diff" || fail "tarball differs from git ls-files (< git, > tarball): $(cat "$T/diff")"

mkdir "$T/src" || exit 111
tar -xzf "$tarball" -C "$T/src" || fail "cannot unpack $tarball"
src=$T/src/fwload-$VERSION
[ -d "$src" ] || fail "no fwload-$VERSION/ in the tarball"
[ -e "$src/.git" ] && fail "the tarball holds .git"
[ "$(cat "$src/VERSION")" = "$VERSION" ] || fail "VERSION in the tarball: $(cat "$src/VERSION")"

make -s -C "$src" >"$T/out" 2>&1 || fail "make in the unpacked tarball: $(cat "$T/out")"
make -s -C "$src" install DESTDIR="$T/root" >"$T/out" 2>&1 ||
	fail "make install DESTDIR= from the unpacked tarball: $(cat "$T/out")"
tree "$T/root" >"$T/installed"
for p in $(make -s -C "$src" print-SBIN_PROGS print-SBIN_SCRIPTS); do
	has "$T/installed" "/sbin/$p" "the install"
done
for p in $(make -s -C "$src" print-LIBEXEC_PROGS print-LIBEXEC_SCRIPTS); do
	has "$T/installed" "/lib/fwload/$p" "the install"
done
for m in $(make -s -C "$src" print-MAN8 print-MAN5); do
	has "$T/installed" "/usr/share/man/man${m##*.}/${m#man/}" "the install"
done
has "$T/installed" /etc/fwload.conf "the install"
has "$T/installed" "/etc/hotplug.d/firmware/50-firmware.hotplug -> /lib/fwload/firmware.agent" "the install"
has "$T/installed" /usr/share/doc/fwload/NEWS "the install"

# A checkout copied elsewhere (cp -r: every file's times and inodes new, so
# git sees them all as changed until its index is refreshed): make dist
# works the first time.
git clone -q "$REPO" "$T/clone" || fail "git clone $REPO"
cp -r "$T/clone" "$T/copy" || exit 111
make -s -C "$T/copy" dist DIST_TARBALL="$T/copy.tar.gz" >"$T/out" 2>&1 ||
	fail "make dist in a copied checkout, the first time: $(cat "$T/out")"
[ -s "$T/copy.tar.gz" ] || fail "make dist in a copied checkout made no tarball"

# Outside git: make dist refuses and says why; the git checks skip, saying why.
make -s -C "$src" dist >"$T/out" 2>&1 && fail "make dist outside git succeeded"
grep -q 'needs a git checkout' "$T/out" || fail "make dist outside git: $(cat "$T/out")"
REPO=$src sh "$src/test/package/tracked.sh" >"$T/out" 2>&1
status=$?
[ "$status" -eq 77 ] || fail "tracked.sh in the unpacked tarball: status $status, want 77 (skipped): $(cat "$T/out")"
grep -q 'not a git checkout' "$T/out" || fail "tracked.sh in the tarball does not say why it skips: $(cat "$T/out")"
echo "note: fwload-$VERSION.tar.gz: $(wc -l <"$T/listed") files, $(wc -c <"$tarball") bytes; built and installed from a clean directory"
