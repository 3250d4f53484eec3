# SPDX-License-Identifier: MIT
# The Debian package, really built: dpkg-buildpackage -us -uc -b on a copy of
# the tree, lintian on the .deb without errors, no maintainer scripts (the
# package starts nothing), and the .deb holds what "make install PREFIX=/usr"
# installs (the install table), checked twice: dpkg-deb -x into one scratch
# root, and dpkg --root=SCRATCH -i (then --purge) into another.
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need dpkg-buildpackage dpkg-deb dh lintian fakeroot make

build=$T/build
copy_tree "$build/fwload-$VERSION"
(cd "$build/fwload-$VERSION" && dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1 ||
	fail "dpkg-buildpackage -us -uc -b: $(tail -n 30 "$T/build.log")"
deb=$(ls "$build"/fwload_*.deb 2>/dev/null)
[ -f "$deb" ] || fail "no fwload_*.deb: $(ls "$build")"
dver=$(dpkg-deb -f "$deb" Version)
case $dver in "$VERSION"-*) ;; *) fail "package version $dver is not VERSION $VERSION" ;; esac

lintian --no-tag-display-limit "$deb" >"$T/lintian" 2>&1
status=$?
grep '^E: ' "$T/lintian" >"$T/errors" && fail "lintian errors: $(cat "$T/errors")"
[ "$status" -eq 0 ] || fail "lintian failed (status $status): $(cat "$T/lintian")"
echo "note: lintian: $(grep -c '^E: ' "$T/lintian") errors, $(grep -c '^W: ' "$T/lintian") warnings$(grep '^W: ' "$T/lintian" | sed 's/^W: fwload: \([^ ]*\).*/ \1/' | sort -u | tr -d '\n')"

dpkg-deb --ctrl-tarfile "$deb" | tar -tf - | sed 's|^\./||' | grep -v '^$' | LC_ALL=C sort >"$T/control"
for s in preinst postinst prerm postrm config triggers; do
	grep -qx "$s" "$T/control" && fail "the package has a maintainer script or trigger: $s"
done
dpkg-deb -f "$deb" Architecture | grep -qx "$(dpkg --print-architecture)" || fail "not built for $(dpkg --print-architecture)"

# The install table: what make install puts in place with Debian's PREFIX.
# dh_compress gzips man pages and the larger documents: names are compared
# without a .gz.
copy_tree "$T/ref-src"
make -s -C "$T/ref-src" install DESTDIR="$T/ref" PREFIX=/usr >"$T/out" 2>&1 ||
	fail "make install PREFIX=/usr: $(cat "$T/out")"
tree "$T/ref" >"$T/want"

dpkg-deb -x "$deb" "$T/x" || fail "dpkg-deb -x failed"
tree "$T/x" | sed 's#^\(/usr/share/.*\)\.gz$#\1#' >"$T/got"
while IFS= read -r p; do
	grep -qxF -- "$p" "$T/got" || echo "$p"
done <"$T/want" >"$T/missing"
[ -s "$T/missing" ] && fail "the .deb (dpkg-deb -x) lacks what make install installs: $(cat "$T/missing")"
has "$T/got" /usr/share/doc/fwload/copyright "the .deb"

# The paths of fwload's own files that the programs name (the scripts'
# ${VAR:-/path} defaults, whole path strings in the C programs) exist in the
# package: the build and the install were given the same directories.
for f in "$T/x/usr/sbin/"* "$T/x/usr/lib/fwload/"*; do
	if grep -Iq . "$f"; then
		sed -n 's/.*:-\(\/[^}]*\)}.*/\1/p' "$f"
	else
		strings -a "$f" | grep -x '/[A-Za-z0-9/._-]*'
	fi
done | grep -E '^(/usr)?/(s?bin|lib/fwload)/|^/etc/(hotplug\.d|fwload\.conf)' | sort -u >"$T/named"
while IFS= read -r p; do
	[ -e "$T/x$p" ] || [ -L "$T/x$p" ] || echo "$p"
done <"$T/named" >"$T/missing"
[ -s "$T/missing" ] && fail "the programs name paths the package does not hold: $(cat "$T/missing")"
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles >"$T/conffiles" 2>/dev/null
has "$T/conffiles" /etc/fwload.conf "the package's conffiles"

# dpkg --root: an empty database in a scratch root; no maintainer script
# runs, so nothing needs a chroot. libc6 is not in that database.
R=$T/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" &&
	: >"$R/var/lib/dpkg/status" && : >"$R/var/lib/dpkg/available" || exit 111
dpkg --root="$R" --force-depends --force-not-root -i "$deb" >"$T/out" 2>&1 ||
	fail "dpkg --root -i: $(cat "$T/out")"
dpkg --root="$R" -s fwload 2>/dev/null | grep -qx 'Status: install ok installed' ||
	fail "dpkg --root -s fwload: not installed"
tree "$R" | grep -v '^/var/' | sed 's#^\(/usr/share/.*\)\.gz$#\1#' >"$T/rooted"
while IFS= read -r p; do
	grep -qxF -- "$p" "$T/rooted" || echo "$p"
done <"$T/want" >"$T/missing"
[ -s "$T/missing" ] && fail "dpkg --root -i did not install: $(cat "$T/missing")"
dpkg --root="$R" --force-depends --force-not-root --purge fwload >"$T/out" 2>&1 ||
	fail "dpkg --root --purge: $(cat "$T/out")"
left=$(tree "$R" | grep -v '^/var/')
[ -z "$left" ] || fail "left after dpkg --purge: $left"
echo "note: $(basename "$deb"): $(wc -l <"$T/want") paths of the install table, installed and purged with dpkg --root; $(wc -l <"$T/named") paths the programs name, all in the package"
