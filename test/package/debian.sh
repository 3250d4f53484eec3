# SPDX-License-Identifier: MIT
# The Debian package, really built: dpkg-buildpackage -us -uc -b on a copy of
# the tree; lintian --pedantic -I on the .deb with no tag but those
# doc/packaging.md justifies; the .deb holds what "make install" installs
# with Debian's paths (PREFIX=/usr, LIBEXECDIR=/usr/libexec/fwload), the
# systemd unit in /usr/lib/systemd/system, the documentation where Debian
# puts it, nothing in /etc/udev; checked twice: dpkg-deb -x into one scratch
# root, and dpkg --root=SCRATCH -i (maintainer scripts run outside a chroot:
# the unit enabled), then --purge (nothing left) into another.
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

# lintian, as pedantic as it gets; each tag it may give is justified in
# doc/packaging.md (a table row "| `TAG` | W | why |"), and a tag that is
# not listed there fails.
lintian --pedantic -I --tag-display-limit 0 "$deb" >"$T/lintian" 2>&1
status=$?
grep -E '^[EWIPX]: ' "$T/lintian" | sed 's/^\([EWIPX]\): fwload: \([^ ]*\).*/\1 \2/' | sort -u >"$T/tags"
# shellcheck disable=SC2016 # the backquotes are Markdown's
sed -n 's/^| `\([a-z0-9.+-]*\)` | \([EWIPX]\) |.*/\2 \1/p' "$REPO/doc/packaging.md" | sort -u >"$T/justified"
[ -s "$T/justified" ] || fail "doc/packaging.md lists no lintian tags"
unjustified=$(comm -23 "$T/tags" "$T/justified")
[ -z "$unjustified" ] || fail "lintian tags doc/packaging.md does not justify: $unjustified ($(cat "$T/lintian"))"
grep -q '^E: ' "$T/lintian" && fail "lintian errors: $(grep '^E: ' "$T/lintian")"
[ "$status" -eq 0 ] || fail "lintian failed (status $status): $(cat "$T/lintian")"
echo "note: lintian --pedantic -I: $(wc -l <"$T/tags") tags, each justified in doc/packaging.md:$(tr ' \n' ':,' <"$T/tags" | sed 's/,$//; s/:/ /g; s/,/, /g; s/^/ /')"

dpkg-deb --ctrl-tarfile "$deb" | tar -tf - | sed 's|^\./||' | grep -v '^$' | LC_ALL=C sort >"$T/control"
# The maintainer scripts are debhelper's, for the unit (dh_installsystemd)
# and the system user of run= programs (dh_installsysusers: made before
# the unit starts, in DPKG_ROOT when dpkg installs into another root).
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./postinst >"$T/postinst" 2>/dev/null
for u in fwload.service fwload-settle.service; do
	grep -q "deb-systemd-helper.*enable '$u'\|deb-systemd-helper enable '$u'" "$T/postinst" ||
		fail "postinst does not enable $u: $(cat "$T/postinst")"
done
# An upgrade restarts fwload.service (a restart keeps setup); it never
# restarts fwload-settle.service (settle again, mid-upgrade).
grep -q "_dh_action=restart" "$T/postinst" || fail "postinst does not restart fwload.service on upgrade"
grep -q "deb-systemd-invoke restart 'fwload-settle.service'\|deb-systemd-invoke \$_dh_action 'fwload-settle.service'" "$T/postinst" &&
	fail "postinst restarts fwload-settle.service on upgrade: $(cat "$T/postinst")"
# shellcheck disable=SC2016 # the postinst's own text
grep -q 'systemd-sysusers ${DPKG_ROOT:+--root="$DPKG_ROOT"} fwload.conf' "$T/postinst" ||
	fail "postinst does not make the user of run= programs: $(cat "$T/postinst")"
[ "$(grep -n 'systemd-sysusers' "$T/postinst" | cut -d: -f1)" -lt "$(grep -n 'deb-systemd-helper' "$T/postinst" | head -n 1 | cut -d: -f1)" ] ||
	fail "postinst makes the user after the unit's snippets: $(cat "$T/postinst")"
dpkg-deb -f "$deb" Depends | grep -q 'systemd | systemd-standalone-sysusers | systemd-sysusers' ||
	fail "no dependency for systemd-sysusers: $(dpkg-deb -f "$deb" Depends)"
for s in preinst config triggers; do
	grep -qx "$s" "$T/control" && fail "the package has a $s"
done
dpkg-deb -f "$deb" Architecture | grep -qx "$(dpkg --print-architecture)" || fail "not built for $(dpkg --print-architecture)"

# The install table: what make install puts in place with Debian's paths
# (the unit too), the documentation as Debian lays it out (flat, the
# example in examples/). dh_compress gzips man pages and the larger
# documents: names are compared without a .gz.
copy_tree "$T/ref-src"
make -s -C "$T/ref-src" install-progs install-man install-systemd DESTDIR="$T/ref" PREFIX=/usr \
	LIBEXECDIR=/usr/libexec/fwload >"$T/out" 2>&1 ||
	fail "make install PREFIX=/usr LIBEXECDIR=/usr/libexec/fwload: $(cat "$T/out")"
mkdir -p "$T/ref/usr/share/doc/fwload/examples" &&
	cp "$REPO/README.md" "$REPO/NEWS" "$REPO"/doc/*.md "$T/ref/usr/share/doc/fwload/" &&
	cp "$REPO/etc/fwload.rules.example" "$T/ref/usr/share/doc/fwload/examples/" || exit 111
tree "$T/ref" >"$T/want"

dpkg-deb -x "$deb" "$T/x" || fail "dpkg-deb -x failed"
tree "$T/x" | sed 's#^\(/usr/share/.*\)\.gz$#\1#' >"$T/got"
while IFS= read -r p; do
	grep -qxF -- "$p" "$T/got" || echo "$p"
done <"$T/want" >"$T/missing"
[ -s "$T/missing" ] && fail "the .deb (dpkg-deb -x) lacks what make install installs: $(cat "$T/missing")"
has "$T/got" /usr/share/doc/fwload/copyright "the .deb"
has "$T/got" /usr/lib/systemd/system/fwload.service "the .deb"
has "$T/got" /usr/lib/sysusers.d/fwload.conf "the .deb"
grep -qx 'u _fwload - "fwload run= programs" /nonexistent /usr/sbin/nologin' "$T/x/usr/lib/sysusers.d/fwload.conf" ||
	fail "the sysusers file: $(cat "$T/x/usr/lib/sysusers.d/fwload.conf")"
has "$T/got" /usr/lib/systemd/system/fwload-settle.service "the .deb"
has "$T/got" /usr/share/doc/fwload/README.Debian "the .deb"
grep -E '^/(lib|etc/udev|usr/lib/fwload|usr/share/doc/fwload/doc)(/|$)' "$T/got" >"$T/wrong" &&
	fail "the .deb has files where Debian's do not go (/lib, /etc/udev, /usr/lib/fwload, doc/doc): $(cat "$T/wrong")"
for want in "ExecStartPre=/usr/sbin/fwloadctl setup --hotplugd --own" "ExecStart=/usr/sbin/hotplugd -p /run/fwload/hotplugd.pid"; do
	grep -qxF "$want" "$T/x/usr/lib/systemd/system/fwload.service" ||
		fail "the unit has no '$want': $(grep ExecStart "$T/x/usr/lib/systemd/system/fwload.service")"
done

# The paths of fwload's own files that the programs name (the scripts'
# ${VAR:-/path} defaults, whole path strings in the C programs) exist in the
# package: the build and the install were given the same directories.
for f in "$T/x/usr/sbin/"* "$T/x/usr/libexec/fwload/"*; do
	if grep -Iq . "$f"; then
		sed -n 's/.*:-\(\/[^}]*\)}.*/\1/p' "$f"
	else
		strings -a "$f" | grep -x '/[A-Za-z0-9/._-]*'
	fi
done | grep -E '^(/usr)?/(s?bin|lib/fwload|libexec/fwload)/|^/etc/(hotplug\.d|fwload\.conf)' | sort -u >"$T/named"
while IFS= read -r p; do
	[ -e "$T/x$p" ] || [ -L "$T/x$p" ] || echo "$p"
done <"$T/named" >"$T/missing"
[ -s "$T/missing" ] && fail "the programs name paths the package does not hold: $(cat "$T/missing")"
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles >"$T/conffiles" 2>/dev/null
has "$T/conffiles" /etc/fwload.conf "the package's conffiles"

# dpkg --root: an empty database in a scratch root; the maintainer scripts
# run outside a chroot (DPKG_ROOT: deb-systemd-helper works in the scratch
# root; no systemd runs here, so nothing is started). libc6 is not in that
# database.
R=$T/root
cp /etc/passwd "$T/passwd.host" || exit 111
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" &&
	: >"$R/var/lib/dpkg/status" && : >"$R/var/lib/dpkg/available" || exit 111
dpkg --root="$R" --force-script-chrootless --force-depends --force-not-root -i "$deb" >"$T/out" 2>&1 ||
	fail "dpkg --root -i: $(cat "$T/out")"
[ "$(readlink "$R/etc/systemd/system/sysinit.target.wants/fwload.service")" = /usr/lib/systemd/system/fwload.service ] ||
	fail "installing did not enable fwload.service: $(ls -lR "$R/etc/systemd" 2>&1)"
[ "$(readlink "$R/etc/systemd/system/multi-user.target.wants/fwload-settle.service")" = /usr/lib/systemd/system/fwload-settle.service ] ||
	fail "installing did not enable fwload-settle.service: $(ls -lR "$R/etc/systemd" 2>&1)"
dpkg --root="$R" -s fwload 2>/dev/null | grep -qx 'Status: install ok installed' ||
	fail "dpkg --root -s fwload: not installed"
# The user, in the scratch root (never the host's /etc/passwd): a system
# uid, a group of its own.
grep -q '^_fwload:x:[0-9]*:[0-9]*:fwload run= programs:/nonexistent:/usr/sbin/nologin$' "$R/etc/passwd" 2>/dev/null ||
	fail "installing did not make the user _fwload in the root: $(cat "$R/etc/passwd" 2>&1)"
ugid=$(sed -n 's/^_fwload:x:\([0-9]*\):\([0-9]*\):.*/\1 \2/p' "$R/etc/passwd")
# shellcheck disable=SC2086 # two numbers
set -- $ugid
{ [ "$1" -gt 0 ] && [ "$1" -lt 1000 ] && [ "$2" -gt 0 ] && [ "$2" != 65534 ] &&
	grep -q "^_fwload:x:$2:" "$R/etc/group"; } || fail "_fwload: uid $1, gid $2: $(cat "$R/etc/group")"
grep -q '^_fwload:' /etc/passwd && ! grep -q '^_fwload:' "$T/passwd.host" && fail "installing into $R made _fwload on the host"
tree "$R" | grep -v '^/var/\|^/etc/systemd/' | sed 's#^\(/usr/share/.*\)\.gz$#\1#' >"$T/rooted"
while IFS= read -r p; do
	grep -qxF -- "$p" "$T/rooted" || echo "$p"
done <"$T/want" >"$T/missing"
[ -s "$T/missing" ] && fail "dpkg --root -i did not install: $(cat "$T/missing")"
dpkg --root="$R" --force-script-chrootless --force-depends --force-not-root --purge fwload >"$T/out" 2>&1 ||
	fail "dpkg --root --purge: $(cat "$T/out")"
# Left: the empty directories systemd's helper made (/etc/systemd/system),
# and the user (purge leaves a system user: files may still belong to its
# uid), in the files systemd-sysusers made (and its lock, /etc/.pwd.lock).
left=$(tree "$R" | grep -v '^/var/' | grep -v '/$' | grep -vx '/etc/passwd\|/etc/group\|/etc/shadow\|/etc/gshadow\|/etc/.pwd.lock')
[ -z "$left" ] || fail "left after dpkg --purge: $left"
grep -q '^_fwload:' "$R/etc/passwd" || fail "purge removed the user _fwload"
echo "note: $(basename "$deb"): $(wc -l <"$T/want") paths of the install table, installed (fwload.service enabled) and purged with dpkg --root; $(wc -l <"$T/named") paths the programs name, all in the package"
