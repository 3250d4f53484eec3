# SPDX-License-Identifier: MIT
# shellcheck disable=SC2016 # the ${...} are the literal text looked for
# make install DESTDIR= with non-default paths puts every file where it
# belongs, with its mode, rewrites the scripts' default paths, links the hook
# to the agent's run-time path (no DESTDIR in it), keeps an existing
# fwload.conf, installs no rules file (etc/fwload.rules.example is
# documentation) and no empty hotplug.d/default (each uevent would pay to
# look into it; nothing needs it: hotplug keeps a previous helper itself), and make
# uninstall removes everything but the config. On the running system (no
# DESTDIR) make uninstall refuses while fwloadctl setup is in force, and
# says to run fwloadctl setup --undo first; FORCE=1 goes on anyway.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

D=$T/stage
src_copy
set -- -s -C "$S" DESTDIR="$D" PREFIX=/usr SYSCONFDIR=/opt/etc HOTPLUGDIR=/opt/etc/hotplug.d
make "$@" install >"$T/out" 2>&1 || fail "make install failed: $(cat "$T/out")"

mode() {
	_m=$(find "$1" -maxdepth 0 -perm "$2" 2>/dev/null)
	[ -n "$_m" ] || fail "$1: not mode $2: $(ls -ld "$1" 2>&1)"
}
mode "$D/usr/sbin/fwload" 755
mode "$D/usr/sbin/hotplug" 755
mode "$D/usr/lib/fwload/firmware.agent" 755
mode "$D/usr/lib/fwload/fwload-lib.sh" 644
mode "$D/usr/sbin/fwloadctl" 755
mode "$D/opt/etc/fwload.conf" 644
no_file "$D/opt/etc/fwload.rules" "an installed rules file (read on every event; an example is in etc/)"
no_file "$D/opt/etc/hotplug.d/default" "an empty hotplug.d/default"
assert_eq "hook link" /usr/lib/fwload/firmware.agent "$(readlink "$D/opt/etc/hotplug.d/firmware/50-firmware.hotplug")"
cmp -s "$S/fwload" "$D/usr/sbin/fwload" || fail "installed fwload differs from the build"

grep -qxF 'dir=${HOTPLUG_DIR:-/opt/etc/hotplug.d}' "$D/usr/sbin/hotplug" ||
	fail "hotplug's HOTPLUG_DIR default not rewritten: $(grep HOTPLUG_DIR "$D/usr/sbin/hotplug")"
grep -qxF 'conf=${FWLOAD_CONF:-/opt/etc/fwload.conf}' "$D/usr/lib/fwload/firmware.agent" ||
	fail "the agent's FWLOAD_CONF default not rewritten"
grep -qxF 'fwload=${FWLOAD:-/usr/sbin/fwload}' "$D/usr/lib/fwload/firmware.agent" ||
	fail "the agent's FWLOAD default not rewritten"
grep -qxF 'libexec=${FWLOAD_LIBEXEC:-/usr/lib/fwload}' "$D/usr/lib/fwload/firmware.agent" ||
	fail "the agent's FWLOAD_LIBEXEC default not rewritten"
for v in 'conf=${FWLOAD_CONF:-/opt/etc/fwload.conf}' 'fwload=${FWLOAD:-/usr/sbin/fwload}' \
	'libexec=${FWLOAD_LIBEXEC:-/usr/lib/fwload}' 'hotplug=${FWLOAD_HOTPLUG:-/usr/sbin/hotplug}' \
	'hotplugd=${FWLOAD_HOTPLUGD:-/usr/sbin/hotplugd}' 'hooks=${HOTPLUG_DIR:-/opt/etc/hotplug.d}' \
	"version=$(cat "$REPO/VERSION")"; do
	grep -qxF "$v" "$D/usr/sbin/fwloadctl" || fail "fwloadctl: no line $v"
done
! grep -q "$D" "$D/usr/sbin/hotplug" "$D/usr/lib/fwload/firmware.agent" "$D/usr/sbin/fwloadctl" ||
	fail "DESTDIR leaked into an installed script"

# A second install keeps the administrator's config.
echo 'LOG=none' >"$D/opt/etc/fwload.conf"
make "$@" install >"$T/out" 2>&1 || fail "second make install failed"
file_is "$D/opt/etc/fwload.conf" 'LOG=none
' "fwload.conf after a second install"

make "$@" uninstall >"$T/out" 2>&1 || fail "make uninstall failed: $(cat "$T/out")"
left=$(cd "$D" && find . -type f -o -type l | sort)
assert_eq "files left after uninstall" ./opt/etc/fwload.conf "$left"

# No DESTDIR (the running system, PREFIX in the test's directory here),
# fwloadctl setup in force (its record in the run directory): refused.
set -- -s -C "$S" PREFIX="$T/sys-root" SYSCONFDIR="$T/sys-root/etc" RUNDIR="$T/run/fwload" \
	MANDIR="$T/sys-root/man" DOCDIR="$T/sys-root/doc"
make "$@" install >"$T/out" 2>&1 || fail "make install failed: $(cat "$T/out")"
grep -qxF "rundir=\${FWLOAD_RUNDIR:-$T/run/fwload}" "$T/sys-root/sbin/fwloadctl" || fail "fwloadctl: RUNDIR not rewritten"
# Every program with the same paths: the scripts, the C programs (fwload's
# lock directory, hotplugd's program) and the man pages.
for f in "$T/sys-root/sbin/hotplug" "$T/sys-root/lib/fwload/firmware.agent"; do
	grep -qF "\${FWLOAD_RUNDIR:-$T/run/fwload}" "$f" || fail "$f: RUNDIR not rewritten"
done
"$T/sys-root/sbin/fwload" --help | grep -qF "LOCKDIR: $T/run/fwload/lock." ||
	fail "fwload --help: $("$T/sys-root/sbin/fwload" --help | grep LOCKDIR)"
"$T/sys-root/sbin/hotplugd" --help | grep -qF "(default $T/sys-root/sbin/hotplug)" ||
	fail "hotplugd --help: $("$T/sys-root/sbin/hotplugd" --help | grep -- -x)"
grep -qF "$T/run/fwload/lock" "$T/sys-root/man/man8/fwload.8" || fail "fwload(8): the lock directory not rewritten"
grep -qF "$T/run/fwload/hotplugd.pid" "$T/sys-root/man/man8/hotplugd.8" || fail "hotplugd(8): the pid file not rewritten"
# A hand-run fwload locks where the agent does (it makes the run directory
# and its lock directory, as in /run).
mkdir -p "$T/run"
mkfw "$T/x.bin" "x"
request x.bin
clean SYSFS="$SYS" "$T/sys-root/sbin/fwload" -l none "$E_DEVPATH" "$T/x.bin" || fail "the installed fwload did not load"
[ -d "$T/run/fwload/lock" ] || fail "the installed fwload took no lock in $T/run/fwload/lock"
rm -r "$T/run/fwload"
mkdir -p "$T/run/fwload"
echo helper= >"$T/run/fwload/setup.state"
make "$@" uninstall >"$T/out" 2>&1 && fail "make uninstall while setup is in force succeeded: $(cat "$T/out")"
grep -q "run 'fwloadctl setup --undo' first" "$T/out" || fail "make uninstall said: $(cat "$T/out")"
[ -x "$T/sys-root/sbin/hotplug" ] || fail "make uninstall removed files while refusing"
make "$@" uninstall FORCE=1 >"$T/out" 2>&1 || fail "make uninstall FORCE=1: $(cat "$T/out")"
no_file "$T/sys-root/sbin/hotplug" "hotplug after make uninstall FORCE=1"
