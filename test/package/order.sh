# SPDX-License-Identifier: MIT
# Every recipe sets fwload up before its init system's coldplug and runs
# settle after its file systems are mounted (doc/packaging.md, "Boot
# order", argues each from the init system's own files). The numbers and
# names of those files are written here, each with the file it comes from
# (the tests cannot fetch Buildroot, openembedded-core, aports or
# OpenWrt); the recipes' own are read from the recipes. The systemd units:
# no default dependencies, before systemd-udev-trigger.service, nothing
# that orders them after the file systems (PrivateTmp=), settle after
# local-fs.target and remote-fs.target; systemd-analyze verify where
# systemd is installed.
# shellcheck disable=SC2016 # ${PN} and $local_fs are the recipes' text
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
c=$REPO/contrib

# sorts_before A B: A comes before B in the C locale (an rc's glob order).
sorts_before() {
	[ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | LC_ALL=C sort | head -n 1)" = "$1" ]
}

# key FILE KEY: the words of every KEY= line of a unit file.
key() {
	sed -n "s/^$2=//p" "$1" | tr '\n' ' '
}
# has_word WORDS WORD WHAT
has_word() {
	case " $1 " in *" $2 "*) ;; *) fail "$3: '$2' not in '$1'" ;; esac
}
u=$c/init/systemd/fwload.service
s=$c/init/systemd/fwload-settle.service
[ "$(key "$u" DefaultDependencies)" = "no " ] || fail "fwload.service: DefaultDependencies=no (the defaults order it after sysinit.target, after the coldplug)"
has_word "$(key "$u" Before)" systemd-udev-trigger.service "fwload.service Before="
has_word "$(key "$u" Before)" sysinit.target "fwload.service Before="
has_word "$(key "$u" After)" systemd-udevd.service "fwload.service After="
has_word "$(key "$u" Conflicts)" shutdown.target "fwload.service Conflicts="
# Settings that add After= on the file systems or on tmpfiles (after
# local-fs.target): none.
for k in PrivateTmp JoinsNamespaceOf RequiresMountsFor; do
	[ -z "$(key "$u" $k)" ] || fail "fwload.service: $k= orders it after the file systems, after the coldplug"
done
[ "$(key "$u" RestartKillSignal)" = "SIGKILL " ] || fail "fwload.service: a restart must not be a stop (RestartKillSignal=SIGKILL)"
grep -q '^ExecStop=' "$u" && fail "fwload.service: ExecStop= runs on a restart too: setup --undo belongs in ExecStopPost=, after a stop only"
grep -q '^ExecStopPost=.*EXIT_CODE/\$\$EXIT_STATUS" = exited/0 .*EXIT_STATUS" = TERM .*setup --undo' "$u" ||
	fail "fwload.service: no ExecStopPost= undoing setup after a stop only (hotplugd's clean end)"
has_word "$(key "$s" After)" local-fs.target "fwload-settle.service After="
has_word "$(key "$s" After)" remote-fs.target "fwload-settle.service After="
has_word "$(key "$s" After)" fwload.service "fwload-settle.service After="
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$T/unit" "$T/man/man8" "$T/man/man5" || exit 111
	cp "$REPO"/man/*.8 "$T/man/man8/" && cp "$REPO"/man/*.5 "$T/man/man5/" || exit 111
	for f in "$u" "$s"; do
		sed -e "s|/sbin/fwloadctl|$REPO/fwloadctl|" -e "s|/sbin/hotplugd|$REPO/hotplugd|" "$f" >"$T/unit/${f##*/}" || exit 111
	done
	MANPATH=$T/man systemd-analyze verify "$T/unit/fwload.service" "$T/unit/fwload-settle.service" >"$T/out" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$T/out")"
	# Both sandboxed alike: settle serves what is pending as fwload.service's
	# jobs do (it was 9.6 UNSAFE with no sandbox, beside 5.3).
	for f in fwload fwload-settle; do
		systemd-analyze security --offline=true "$T/unit/$f.service" >"$T/sec.$f" 2>&1 ||
			fail "systemd-analyze security $f.service: $(cat "$T/sec.$f")"
		sed -n 's/^.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$T/sec.$f" >"$T/level.$f"
	done
	{ read -r main <"$T/level.fwload" && read -r settle <"$T/level.fwload-settle"; } ||
		fail "no exposure level: $(tail -n 1 "$T/sec.fwload") $(tail -n 1 "$T/sec.fwload-settle")"
	awk -v a="$settle" -v b="$main" 'BEGIN { exit !(a <= b && b < 6) }' ||
		fail "exposure: fwload-settle.service $settle, fwload.service $main (settle at most fwload's, both MEDIUM or better)"
	echo "note: systemd-analyze security: fwload.service $main, fwload-settle.service $settle"
fi
# The sandbox lines that are fwload-settle.service's are fwload.service's
# (less hotplugd's CAP_NET_ADMIN and AF_NETLINK).
for k in NoNewPrivileges ProtectSystem ProtectHome ProtectControlGroups ProtectKernelModules ProtectHostname \
	RestrictNamespaces RestrictRealtime RestrictSUIDSGID LockPersonality MemoryDenyWriteExecute SystemCallArchitectures UMask; do
	[ "$(key "$s" "$k")" = "$(key "$u" "$k")" ] || fail "$k= differs: fwload-settle.service '$(key "$s" "$k")', fwload.service '$(key "$u" "$k")'"
done
[ "$(key "$s" CapabilityBoundingSet)" = "$(key "$u" CapabilityBoundingSet | sed 's/CAP_NET_ADMIN //')" ] ||
	fail "CapabilityBoundingSet= differs beyond CAP_NET_ADMIN: '$(key "$s" CapabilityBoundingSet)'"
[ "$(key "$s" RestrictAddressFamilies)" = "$(key "$u" RestrictAddressFamilies | sed 's/ AF_NETLINK//')" ] ||
	fail "RestrictAddressFamilies= differs beyond AF_NETLINK: '$(key "$s" RestrictAddressFamilies)'"

# number NAME: the two digits of a start script's name.
# Buildroot: package/busybox/S10mdev (mdev -df, then modprobe of every
# modalias: the coldplug) and package/eudev/S10udev (udevadm trigger); the
# skeleton's inittab mounts /proc, /sys and /run ("mount -a") before rcS,
# which runs /etc/init.d/S??* in name order.
br_coldplug=10
for f in "$c"/buildroot/package/fwload/S[0-9][0-9]*; do
	n=${f##*/S}
	n=${n%%[!0-9]*}
	case ${f##*/} in
	S??fwload) [ "$n" -lt "$br_coldplug" ] || fail "Buildroot: ${f##*/} runs after S${br_coldplug}mdev/S${br_coldplug}udev's coldplug" ;;
	S??fwload-settle) [ "$n" = 99 ] || fail "Buildroot: ${f##*/} is not the last start script" ;;
	*) fail "Buildroot: an unknown start script ${f##*/}" ;;
	esac
done
grep -q 'FWLOAD_PKGDIR)/S09fwload' "$c/buildroot/package/fwload/fwload.mk" || fail "Buildroot: fwload.mk does not install S09fwload"
grep -q 'FWLOAD_PKGDIR)/S99fwload-settle' "$c/buildroot/package/fwload/fwload.mk" || fail "Buildroot: fwload.mk does not install S99fwload-settle"
grep -q 'depends on !BR2_PACKAGE_EUDEV' "$c/buildroot/package/fwload/Config.in" ||
	fail "Buildroot: the uevent helper is offered with eudev, whose S10udev empties it"

# Yocto (openembedded-core): sysfs.sh "start 02 S" (/proc, /sys),
# mountall.sh "start 03 S" (/run, from the fstab), eudev's init
# INITSCRIPT_NAME "udev", "start 04 S" (udevadm trigger), mountnfs.sh
# "start 15 2 3 4 5"; rc runs S* in name order.
bb=$c/yocto/recipes-support/fwload/fwload_$VERSION.bb
p=$(sed -n 's/^INITSCRIPT_PARAMS:${PN} = "start \([0-9][0-9]\) S .*/\1/p' "$bb")
[ -n "$p" ] || fail "Yocto: no INITSCRIPT_PARAMS:\${PN} start NN S"
{ sorts_before S03mountall.sh "S${p}fwload" && sorts_before "S${p}fwload" S04udev; } ||
	fail "Yocto: S${p}fwload is not between S03mountall.sh (/run) and S04udev (the coldplug)"
p=$(sed -n 's/^INITSCRIPT_PARAMS:${PN}-settle = "start \([0-9][0-9]\) 2 3 4 5 .*/\1/p' "$bb")
{ [ -n "$p" ] && [ "$p" -gt 15 ]; } || fail "Yocto: fwload-settle does not start after mountnfs.sh (15) in runlevels 2-5"

# sysvinit with insserv (Debian): the udev script (Provides: udev) runs
# udevadm trigger; $local_fs and $remote_fs are the mounts.
grep -qx '# X-Start-Before:    udev mdev' "$c/init/sysvinit/fwload" || fail "sysvinit: fwload is not ordered before udev"
grep -qx '# Required-Start:    fwload $local_fs $remote_fs' "$c/init/sysvinit/fwload-settle" ||
	fail "sysvinit: fwload-settle is not ordered after the file systems"

# Alpine (aports): main/mdevd/mdevd-init.initd is the coldplug for mdevd,
# udev-trigger (main/udev-init-scripts) for udev, hwdrivers for mdev
# (main/eudev/setup-udev takes hwdrivers out of sysinit); udev-trigger may
# provide "dev" too, so not "after dev".
a=$(sed -n 's/^[[:space:]]*before //p' "$c/alpine/fwload.initd")
for w in hwdrivers mdevd-init udev-trigger; do has_word "$a" "$w" "Alpine: fwload before"; done
grep -q '^[[:space:]]*after dev' "$c/alpine/fwload.initd" && fail "Alpine: 'after dev' orders fwload after udev-trigger"
grep -q '^[[:space:]]*after localmount netmount' "$c/alpine/fwload-settle.initd" || fail "Alpine: fwload-settle is not after the mounts"

# OpenWrt: package/base-files/files/etc/init.d/boot is START=10 (it loads
# /etc/modules.d), fstab START=11, done START=95.
st() { sed -n 's/^START=//p' "$1"; }
[ "$(st "$c/openwrt/fwload/files/fwload.init")" -lt 10 ] || fail "OpenWrt: fwload starts after boot has loaded /etc/modules.d"
[ "$(st "$c/openwrt/fwload/files/fwload-settle.init")" -gt 95 ] || fail "OpenWrt: fwload-settle starts before done (95)"

# runit (Void): /etc/runit/1 sources core-services/*.sh in name order:
# 00-pseudofs.sh (/run), 02-kmods.sh and 02-udev.sh (the coldplug),
# 03-filesystems.sh (the local mounts).
for f in "$c"/init/runit/core-services/*.sh; do
	case ${f##*/} in
	*-fwload.sh) { sorts_before 00-pseudofs.sh "${f##*/}" && sorts_before "${f##*/}" 02-kmods.sh; } || fail "runit: ${f##*/} not between 00-pseudofs.sh and 02-kmods.sh" ;;
	*-fwload-settle.sh) sorts_before 03-filesystems.sh "${f##*/}" || fail "runit: ${f##*/} before 03-filesystems.sh" ;;
	*) fail "runit: an unknown core service ${f##*/}" ;;
	esac
done

# s6-rc: setup depends on the supervised hotplugd; settle on setup.
[ -e "$c/init/s6/fwload-setup/dependencies.d/hotplugd" ] || fail "s6: fwload-setup does not depend on hotplugd"
[ -e "$c/init/s6/fwload-settle/dependencies.d/fwload-setup" ] || fail "s6: fwload-settle does not depend on fwload-setup"
echo "note: systemd, Buildroot, Yocto, sysvinit, Alpine, OpenWrt, runit and s6: set up before the coldplug, settle after the mounts"
exit 0
