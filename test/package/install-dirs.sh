# SPDX-License-Identifier: MIT
# make install DESTDIR= puts every file where the directory variables say,
# creates every directory it needs whatever their combination (HOTPLUGDIR
# outside SYSCONFDIR, each variable elsewhere, given on the command line or
# in the environment), rewrites the paths in the scripts and man pages, and
# make uninstall leaves only fwload.conf (the systemd units of
# install-systemd go too); install-strip strips the C programs where they
# were installed.
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need make

copy_tree "$T/src"
make -s -C "$T/src" >"$T/out" 2>&1 || fail "make: $(cat "$T/out")"
sbin_progs=$(make -s -C "$T/src" print-SBIN_PROGS print-SBIN_SCRIPTS)
libexec_progs=$(make -s -C "$T/src" print-LIBEXEC_PROGS print-LIBEXEC_SCRIPTS)
pages=$(make -s -C "$T/src" print-MAN8 print-MAN5)

# try NAME SBINDIR LIBEXECDIR SYSCONFDIR HOTPLUGDIR MANDIR DOCDIR -- MAKE-ARGS...:
# install with MAKE-ARGS and check the result against the six directories.
try() {
	name=$1 sbin=$2 libexec=$3 etc=$4 hooks=$5 man=$6 doc=$7
	shift 8
	D=$T/$name
	"$@" -s -C "$T/src" install DESTDIR="$D" >"$T/out" 2>&1 ||
		fail "$name: make install failed: $(cat "$T/out")"
	tree "$D" >"$T/$name.tree"
	for p in $sbin_progs; do has "$T/$name.tree" "$sbin/$p" "$name"; done
	for p in $libexec_progs; do has "$T/$name.tree" "$libexec/$p" "$name"; done
	for m in $pages; do has "$T/$name.tree" "$man/man${m##*.}/${m#man/}" "$name"; done
	has "$T/$name.tree" "$etc/fwload.conf" "$name"
	grep -qxF "$hooks/default/" "$T/$name.tree" && fail "$name: an empty $hooks/default/ (every uevent would look into it)"
	has "$T/$name.tree" "$hooks/firmware/50-firmware.hotplug -> $libexec/firmware.agent" "$name"
	has "$T/$name.tree" "$doc/NEWS" "$name"
	grep -rqF -- "$D" "$D" && fail "$name: DESTDIR written into an installed file: $(grep -rlF -- "$D" "$D")"
	grep -qxF "dir=\${HOTPLUG_DIR:-$hooks}" "$D$sbin/hotplug" ||
		fail "$name: hotplug's HOTPLUG_DIR not $hooks: $(grep HOTPLUG_DIR "$D$sbin/hotplug")"
	grep -qF "$sbin/fwload}" "$D$libexec/firmware.agent" || fail "$name: the agent's fwload path is not $sbin/fwload"
	# The man pages name the paths of this install.
	grep -qF "$libexec/firmware.agent" "$D$man/man8/firmware.agent.8" ||
		fail "$name: firmware.agent(8) does not name $libexec/firmware.agent"
	grep -qF "$etc/fwload.conf" "$D$man/man5/fwload.conf.5" ||
		fail "$name: fwload.conf(5) does not name $etc/fwload.conf"
	grep -qF "$hooks/firmware/50" "$D$man/man8/hotplug.8" ||
		fail "$name: hotplug(8) does not name $hooks"
	# When every directory moved, no default path is left (documentation
	# aside, which describes the defaults).
	if [ -n "${all_moved-}" ]; then
		grep -rlE '/lib/fwload/|/etc/fwload\.conf|/etc/hotplug\.d' "$D" | grep -v "^$D$doc/" >"$T/left"
		[ -s "$T/left" ] && fail "$name: default paths left in: $(cat "$T/left")"
	fi
	"$@" -s -C "$T/src" uninstall DESTDIR="$D" >"$T/out" 2>&1 ||
		fail "$name: make uninstall failed: $(cat "$T/out")"
	left=$(cd "$D" && find . ! -type d)
	[ "$left" = ".$etc/fwload.conf" ] || fail "$name: left after uninstall: $left"
}

try defaults /sbin /lib/fwload /etc /etc/hotplug.d /usr/share/man /usr/share/doc/fwload -- make
# The combination that used to fail: HOTPLUGDIR outside SYSCONFDIR.
try usr /usr/sbin /usr/lib/fwload /etc /lib/hotplug.d /usr/share/man /usr/share/doc/fwload -- \
	make PREFIX=/usr HOTPLUGDIR=/lib/hotplug.d
# Every directory somewhere else, from the environment.
try env /opt/fw/sbin /opt/fw/libexec /opt/fw/etc /var/fw/hooks /opt/fw/man /opt/fw/doc -- \
	env SBINDIR=/opt/fw/sbin LIBEXECDIR=/opt/fw/libexec SYSCONFDIR=/opt/fw/etc \
	HOTPLUGDIR=/var/fw/hooks MANDIR=/opt/fw/man DOCDIR=/opt/fw/doc make
# The environment gives way to the command line.
all_moved=1
try cmdline /a/sbin /a/libexec /a/conf /b/hooks /a/share/man /a/share/doc/fwload -- \
	env PREFIX=/wrong SBINDIR=/wrong make PREFIX=/a SBINDIR=/a/sbin LIBEXECDIR=/a/libexec \
	SYSCONFDIR=/a/conf HOTPLUGDIR=/b/hooks

# make uninstall removes what install-systemd put in place too (the units).
make -s -C "$T/src" install install-systemd DESTDIR="$T/units" PREFIX=/usr >"$T/out" 2>&1 ||
	fail "make install install-systemd failed: $(cat "$T/out")"
for u in fwload.service fwload-settle.service; do
	[ -f "$T/units/usr/lib/systemd/system/$u" ] || fail "install-systemd: no /usr/lib/systemd/system/$u"
done
make -s -C "$T/src" uninstall DESTDIR="$T/units" PREFIX=/usr >"$T/out" 2>&1 ||
	fail "make uninstall failed: $(cat "$T/out")"
left=$(cd "$T/units" && find . ! -type d)
[ "$left" = "./etc/fwload.conf" ] || fail "left after install-systemd and uninstall: $left"

# install-strip: the C programs, wherever they went, stripped.
if command -v strip >/dev/null 2>&1; then
	make -s -C "$T/src" install-strip DESTDIR="$T/strip" PREFIX=/usr >"$T/out" 2>&1 ||
		fail "make install-strip failed: $(cat "$T/out")"
	for p in $(make -s -C "$T/src" PREFIX=/usr print-INSTALLED_C); do
		strip -o "$T/stripped" "$T/strip$p" || fail "strip $T/strip$p failed"
		cmp -s "$T/strip$p" "$T/stripped" || fail "install-strip left $p unstripped"
	done
fi
exit 0
