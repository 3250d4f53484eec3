# SPDX-License-Identifier: MIT
# The recipes that cannot be built here (Buildroot, Yocto, Alpine, OpenWrt):
# one version and one license everywhere (VERSION, NEWS, debian/changelog,
# the man pages, each recipe; LIC_FILES_CHKSUM the md5 of LICENSE), their
# shell parts parse, and each recipe's own install commands, run with its
# build system's variables filled in, install the programs the Makefile
# lists; OpenWrt's put nothing under /etc/hotplug.d but the one hook
# hotplug-call sources.
# shellcheck disable=SC2016 # the $(...) and ${...} are the recipes', for sed
# shellcheck source=lib.sh
. "$REPO/test/package/lib.sh"
need make md5sum

c=$REPO/contrib
v() {
	[ "$2" = "$VERSION" ] || fail "$1 says version '$2', VERSION says $VERSION"
}
v debian/changelog "$(sed -n '1s/^fwload (\([^-]*\)-[^)]*).*/\1/p' "$REPO/debian/changelog")"
v NEWS "$(grep -x '[0-9][0-9.]*' "$REPO/NEWS" | head -n 1)"
v Buildroot "$(sed -n 's/^FWLOAD_VERSION = //p' "$c/buildroot/package/fwload/fwload.mk")"
[ -f "$c/yocto/recipes-support/fwload/fwload_$VERSION.bb" ] || fail "no Yocto recipe fwload_$VERSION.bb"
v Alpine "$(sed -n 's/^pkgver=//p' "$c/alpine/APKBUILD")"
v OpenWrt "$(sed -n 's/^PKG_VERSION:=//p' "$c/openwrt/fwload/Makefile")"

l() {
	[ "$2" = "$3" ] || fail "$1: '$2', want '$3'"
}
l "Buildroot license" "$(sed -n 's/^FWLOAD_LICENSE = //p' "$c/buildroot/package/fwload/fwload.mk")" MIT
l "Buildroot license files" "$(sed -n 's/^FWLOAD_LICENSE_FILES = //p' "$c/buildroot/package/fwload/fwload.mk")" LICENSE
bb=$c/yocto/recipes-support/fwload/fwload_$VERSION.bb
l "Yocto LICENSE" "$(sed -n 's/^LICENSE = "\(.*\)"$/\1/p' "$bb")" MIT
l "Yocto LIC_FILES_CHKSUM" "$(sed -n 's/^LIC_FILES_CHKSUM = "file:\/\/LICENSE;md5=\(.*\)"$/\1/p' "$bb")" \
	"$(md5sum <"$REPO/LICENSE" | cut -d' ' -f1)"
l "Alpine license" "$(sed -n 's/^license="\(.*\)"$/\1/p' "$c/alpine/APKBUILD")" MIT
l "OpenWrt PKG_LICENSE" "$(sed -n 's/^PKG_LICENSE:=//p' "$c/openwrt/fwload/Makefile")" MIT
l "OpenWrt PKG_LICENSE_FILES" "$(sed -n 's/^PKG_LICENSE_FILES:=//p' "$c/openwrt/fwload/Makefile")" LICENSE
grep -qx 'License: MIT' "$REPO/debian/copyright" || fail "debian/copyright: no 'License: MIT'"
grep -q '^MIT License' "$REPO/LICENSE" || fail "LICENSE is not the MIT license"

for s in "$c/alpine/APKBUILD" "$c/alpine/fwload.initd" "$c/buildroot/package/fwload/S09fwload" "$c/buildroot/package/fwload/S99fwload-settle" \
	"$c/openwrt/fwload/files/fwload.hotplug" "$c/openwrt/fwload/files/fwload.init" "$c/init/sysvinit/fwload"; do
	sh -n "$s" 2>"$T/out" || fail "$s does not parse: $(cat "$T/out")"
done

# A built copy of the tree stands for each recipe's build directory.
copy_tree "$T/src"
make -s -C "$T/src" >"$T/out" 2>&1 || fail "make: $(cat "$T/out")"
progs=$(make -s -C "$T/src" print-SBIN_PROGS print-SBIN_SCRIPTS)
libexec=$(make -s -C "$T/src" print-LIBEXEC_PROGS print-LIBEXEC_SCRIPTS)

# recipe NAME FILE START END SED...: run the shell lines of FILE between the
# lines START and END (regexps, exclusive), rewritten by the sed expressions.
recipe() {
	name=$1 file=$2 start=$3 end=$4
	shift 4
	sed -n "/$start/,/$end/p" "$file" | sed -e '1d' -e '$d' "$@" >"$T/$name.sh"
	[ -s "$T/$name.sh" ] || fail "$name: no install commands found in $file"
	(cd "$T/src" && sh -e "$T/$name.sh") >"$T/out" 2>&1 ||
		fail "$name: its install commands failed: $(cat "$T/$name.sh") -> $(cat "$T/out")"
}

# The maintainer line of each recipe is the project's (debian/control).
maint=$(sed -n 's/^Maintainer: //p' "$REPO/debian/control")
[ -n "$maint" ] || fail "debian/control has no Maintainer"
has_line() {
	grep -qxF -- "$2" "$1" || fail "$1 lacks the line '$2'"
}
has_line "$c/alpine/APKBUILD" "# Maintainer: $maint"
has_line "$c/openwrt/fwload/Makefile" "PKG_MAINTAINER:=$maint"
grep -qF -- "Maintainer: $maint" "$c/yocto/README.md" || fail "the Yocto layer's README names no maintainer '$maint'"

# Buildroot: FWLOAD_INSTALL_TARGET_CMDS, _INIT_SYSV and _INIT_SYSTEMD, the
# paths of FWLOAD_MAKE_OPTS; the license hash.
mk=$c/buildroot/package/fwload/fwload.mk
bropts=$(sed -n '/^FWLOAD_MAKE_OPTS = /,/[^\\]$/p' "$mk" | tr -d '\\\n\t' | tr ' ' '\n' | grep '^[A-Z]*DIR=/\|^PREFIX=/' | tr '\n' ' ')
[ -n "$bropts" ] || fail "Buildroot: no paths in FWLOAD_MAKE_OPTS"
br=$T/buildroot
brsed() {
	recipe "$1" "$mk" "^define $2" '^endef' \
		-e 's|\$(TARGET_MAKE_ENV) ||; s|\$(MAKE)|make -s|; s|\$(@D)|.|' \
		-e "s|\$(FWLOAD_MAKE_OPTS)|$bropts|; s|\$(TARGET_DIR)|$br|g; s|\$(SED)|sed -i -e|" \
		-e 's|\$(FWLOAD_EVENT_SOURCE)|hotplugd|; s|\$(INSTALL)|install|' \
		-e 's|\$(FWLOAD_PKGDIR)|'"$c/buildroot/package/fwload"'|'
}
brsed buildroot FWLOAD_INSTALL_TARGET_CMDS
brsed buildroot-sysv FWLOAD_INSTALL_INIT_SYSV
brsed buildroot-systemd FWLOAD_INSTALL_INIT_SYSTEMD
for p in $progs; do [ -x "$br/usr/sbin/$p" ] || fail "Buildroot: no /usr/sbin/$p"; done
for p in $libexec; do [ -x "$br/usr/libexec/fwload/$p" ] || fail "Buildroot: no /usr/libexec/fwload/$p"; done
grep -qx 'SOURCE=hotplugd' "$br/etc/fwload.conf" || fail "Buildroot: fwload.conf does not set the event source"
[ -x "$br/etc/init.d/S09fwload" ] || fail "Buildroot: no /etc/init.d/S09fwload"
grep -q '^	/usr/sbin/fwloadctl setup' "$br/etc/init.d/S09fwload" || fail "Buildroot: S09fwload does not run /usr/sbin/fwloadctl"
[ -x "$br/etc/init.d/S99fwload-settle" ] || fail "Buildroot: no /etc/init.d/S99fwload-settle"
grep -q '^	if /usr/sbin/fwloadctl settle' "$br/etc/init.d/S99fwload-settle" || fail "Buildroot: no S99fwload-settle running fwloadctl settle"
grep -qx "ExecStartPre=/usr/sbin/fwloadctl setup --hotplugd --own" "$br/usr/lib/systemd/system/fwload.service" ||
	fail "Buildroot: no fwload.service running /usr/sbin/fwloadctl"
grep -qx "ExecStart=/usr/sbin/hotplugd -p /run/fwload/hotplugd.pid" "$br/usr/lib/systemd/system/fwload.service" ||
	fail "Buildroot: no fwload.service running /usr/sbin/hotplugd"
grep -qx 'ExecStart=/usr/sbin/fwloadctl settle' "$br/usr/lib/systemd/system/fwload-settle.service" ||
	fail "Buildroot: no fwload-settle.service running /usr/sbin/fwloadctl"
[ -e "$br/usr/share/man" ] && fail "Buildroot: man pages on the target"
grep -qx "sha256  $(sha256sum <"$REPO/LICENSE" | cut -d' ' -f1)  LICENSE" "$c/buildroot/package/fwload/fwload.hash" ||
	fail "Buildroot: fwload.hash does not hold LICENSE's sha256"
grep -q '^define FWLOAD_BUSYBOX_CONFIG_FIXUPS' "$mk" || fail "Buildroot: no FWLOAD_BUSYBOX_CONFIG_FIXUPS"
grep -q '^FWLOAD_PRE_BUILD_HOOKS += ' "$mk" || fail "Buildroot: nothing removes a host build from the local source"
# <PKG>_SOURCE is Buildroot's own: the file name of the download (a
# release tarball's too, with FWLOAD_SITE_METHOD = wget).
grep -q '^FWLOAD_SOURCE[ :+?]*=' "$mk" && fail "Buildroot: fwload.mk sets FWLOAD_SOURCE, Buildroot's download file name"
for o in HOTPLUGD HELPER; do
	grep -q "^config BR2_PACKAGE_FWLOAD_SOURCE_$o\$" "$c/buildroot/package/fwload/Config.in" ||
		fail "Buildroot: no event source choice BR2_PACKAGE_FWLOAD_SOURCE_$o"
done
# The parts a board chooses: fwload.mk read by make with Config.in's
# symbols as menuconfig sets them (its defaults; every part off with the
# helper source), its WITH_ options then given to make install-progs.
printf '%s\n' 'KCONFIG_ENABLE_OPT = ENABLE:$(1)' 'KCONFIG_SET_OPT = SET:$(1)=$(2)' "include $mk" 'print:' \
	'	$(info $(filter WITH_%,$(FWLOAD_MAKE_OPTS))|$(if $(FWLOAD_INSTALL_INIT_SYSV),sysv)|$(strip $(FWLOAD_LINUX_CONFIG_SOURCE)))@:' >"$T/br.mk"
brwith() {
	make -s -f "$T/br.mk" BR2_EXTERNAL_FWLOAD_PATH="$c/buildroot" generic-package= BR2_PACKAGE_FWLOAD=y "$@" print
}
# shellcheck disable=SC2046 # one symbol a word
set -- $(sed -n 's/^config \(BR2_PACKAGE_FWLOAD_[A-Z_]*\)$/\1/p' "$c/buildroot/package/fwload/Config.in")
l "Buildroot sub-options" "$*" "BR2_PACKAGE_FWLOAD_FWLOADCTL BR2_PACKAGE_FWLOAD_UPLOAD BR2_PACKAGE_FWLOAD_EXTRACT \
BR2_PACKAGE_FWLOAD_RUN BR2_PACKAGE_FWLOAD_MANIFEST BR2_PACKAGE_FWLOAD_VERIFY BR2_PACKAGE_FWLOAD_SOURCE_HOTPLUGD \
BR2_PACKAGE_FWLOAD_SOURCE_HELPER"
full=$(brwith BR2_PACKAGE_FWLOAD_FWLOADCTL=y BR2_PACKAGE_FWLOAD_UPLOAD=y BR2_PACKAGE_FWLOAD_EXTRACT=y BR2_PACKAGE_FWLOAD_RUN=y \
	BR2_PACKAGE_FWLOAD_MANIFEST=y BR2_PACKAGE_FWLOAD_VERIFY=y BR2_PACKAGE_FWLOAD_SOURCE_HOTPLUGD=y 2>&1)
l "Buildroot, the defaults" "${full%%|*}" "WITH_HOTPLUGD=yes WITH_FWLOADCTL=yes WITH_UPLOAD=yes WITH_EXTRACT=yes WITH_RUN=yes WITH_MANIFEST=yes \
WITH_VERIFY=yes"
case $full in *'|sysv|'*) ;; *) fail "Buildroot, the defaults: no init scripts: $full" ;; esac
min=$(brwith BR2_PACKAGE_FWLOAD_SOURCE_HELPER=y 2>&1)
l "Buildroot, every part off" "${min%%|*}" "WITH_HOTPLUGD=no WITH_FWLOADCTL=no WITH_UPLOAD=no WITH_EXTRACT=no WITH_RUN=no WITH_MANIFEST=no \
WITH_VERIFY=no"
case $min in *'||'*'SET:CONFIG_UEVENT_HELPER_PATH="/usr/sbin/hotplug"'*ENABLE:CONFIG_FW_LOADER_USER_HELPER_FALLBACK*) ;;
*) fail "Buildroot, no fwloadctl: an init script, or the kernel does not set the chain up: $min" ;;
esac
# shellcheck disable=SC2086 # lists of VAR=VALUE
make -s -C "$T/src" $bropts ${min%%|*} DESTDIR="$T/br-min" install-progs >"$T/out" 2>&1 ||
	fail "Buildroot, every part off: make install-progs failed: $(cat "$T/out")"
l "Buildroot, every part off: the programs" "$(cd "$T/br-min/usr" && echo sbin/* libexec/fwload/*)" \
	"sbin/fwload sbin/hotplug libexec/fwload/firmware.agent libexec/fwload/fwload-lib.sh libexec/fwload/fwload-log libexec/fwload/fwload-pending libexec/fwload/fwload-stamp"

# Yocto: do_install, oe_runmake being make with EXTRA_OEMAKE, with poky's
# paths (usrmerge: base_sbindir is /usr/sbin), systemd and sysvinit in
# DISTRO_FEATURES.
yo=$T/yocto
ysed() {
	sed -e 's|\${base_sbindir}|/usr/sbin|g; s|\${libexecdir}|/usr/libexec|g; s|\${sysconfdir}|/etc|g' \
		-e 's|\${mandir}|/usr/share/man|g; s|\${docdir}|/usr/share/doc|g; s|\${BPN}|fwload|g' \
		-e 's|\${systemd_system_unitdir}|/usr/lib/systemd/system|g; s|\${INIT_D_DIR}|/etc/init.d|g; s|\${S}|.|g' \
		-e "s|\${@bb.utils.contains('DISTRO_FEATURES', '[a-z]*', 'true', 'false', d)}|true|g"
}
oemake=$(sed -n '/^EXTRA_OEMAKE = "/,/"$/p' "$bb" | tr -d '\\\n\t' | sed 's/^EXTRA_OEMAKE = "\(.*\)"$/\1/' | ysed)
[ -n "$oemake" ] || fail "Yocto: no EXTRA_OEMAKE in $bb"
# yocto_install DIR PACKAGECONFIG_CONFARGS FWLOAD_INIT: do_install into DIR.
yocto_install() {
	recipe yocto "$bb" '^do_install() {' '^}' -e "s|oe_runmake|make -s $oemake $2|" -e 's|\${D}|'"$1"'|g' \
		-e 's|\${base_sbindir}|/usr/sbin|g; s|\${libexecdir}|/usr/libexec|g; s|\${sysconfdir}|/etc|g' \
		-e 's|\${mandir}|/usr/share/man|g; s|\${docdir}|/usr/share/doc|g; s|\${BPN}|fwload|g' \
		-e 's|\${systemd_system_unitdir}|/usr/lib/systemd/system|g; s|\${INIT_D_DIR}|/etc/init.d|g; s|\${S}|.|g' \
		-e "s|\${@bb.utils.contains('DISTRO_FEATURES', '[a-z]*', 'true', 'false', d)}|true|g" -e "s|\${FWLOAD_INIT}|$3|g"
}
# PACKAGECONFIG: every flag's enable and disable arguments; none set, the
# parts' files neither installed, nor the init scripts and units.
for f in fwloadctl:FWLOADCTL hotplugd:HOTPLUGD upload:UPLOAD extract:EXTRACT run:RUN manifest:MANIFEST verify:VERIFY; do
	k=${f#*:} f=${f%:*}
	grep -qx "PACKAGECONFIG\[$f\] = \"WITH_$k=yes,WITH_$k=no\"" "$bb" ||
		fail "Yocto: no PACKAGECONFIG[$f]"
done
grep -qx 'PACKAGECONFIG ??= "fwloadctl hotplugd upload extract run manifest verify"' "$bb" || fail "Yocto: not every part in PACKAGECONFIG by default"
grep -qx 'EXTRA_OEMAKE += "${PACKAGECONFIG_CONFARGS}"' "$bb" || fail "Yocto: PACKAGECONFIG does not reach make"
yocto_install "$T/yocto-min" "$(sed -n 's/^PACKAGECONFIG\[[a-z]*\] = ".*,\(.*\)"$/\1/p' "$bb" | tr '\n' ' ')" false
l "Yocto, no PACKAGECONFIG: the programs" "$(cd "$T/yocto-min" && find . ! -type d ! -path './usr/share/*' | LC_ALL=C sort | tr '\n' ' ')" \
	"./etc/fwload.conf ./etc/hotplug.d/firmware/50-firmware.hotplug ./usr/libexec/fwload/firmware.agent \
./usr/libexec/fwload/fwload-lib.sh ./usr/libexec/fwload/fwload-log ./usr/libexec/fwload/fwload-pending \
./usr/libexec/fwload/fwload-stamp ./usr/sbin/fwload ./usr/sbin/hotplug "
yocto_install "$yo" "" true
for p in $progs; do [ -x "$yo/usr/sbin/$p" ] || fail "Yocto: no /usr/sbin/$p"; done
for p in $libexec; do [ -x "$yo/usr/libexec/fwload/$p" ] || fail "Yocto: no /usr/libexec/fwload/$p"; done
[ -f "$yo/usr/share/man/man8/fwload.8" ] || fail "Yocto: no man pages (for fwload-doc)"
grep -qx "ExecStartPre=/usr/sbin/fwloadctl setup --hotplugd --own" "$yo/usr/lib/systemd/system/fwload.service" ||
	fail "Yocto: no fwload.service running /usr/sbin/fwloadctl"
grep -qx "ExecStart=/usr/sbin/hotplugd -p /run/fwload/hotplugd.pid" "$yo/usr/lib/systemd/system/fwload.service" ||
	fail "Yocto: no fwload.service running /usr/sbin/hotplugd"
[ -f "$yo/usr/lib/systemd/system/fwload-settle.service" ] || fail "Yocto: no fwload-settle.service"
for s in fwload fwload-settle; do
	grep -qx 'FWLOADCTL=${FWLOADCTL:-/usr/sbin/fwloadctl}' "$yo/etc/init.d/$s" || fail "Yocto: no /etc/init.d/$s running /usr/sbin/fwloadctl"
done
grep -qx 'inherit systemd update-rc.d' "$bb" || fail "Yocto: the recipe does not inherit systemd and update-rc.d"
grep -qxF "SYSTEMD_SERVICE:\${PN} = \"\${@bb.utils.contains('PACKAGECONFIG', 'fwloadctl', 'fwload.service fwload-settle.service', '', d)}\"" "$bb" ||
	fail "Yocto: no SYSTEMD_SERVICE (with fwloadctl)"
grep -qx 'INITSCRIPT_NAME:${PN} = "fwload"' "$bb" || fail "Yocto: no INITSCRIPT_NAME"
grep -qx 'INITSCRIPT_NAME:${PN}-settle = "fwload-settle"' "$bb" || fail "Yocto: no INITSCRIPT_NAME for fwload-settle"
compat=$(sed -n 's/^LAYERSERIES_COMPAT_fwload = "\(.*\)"$/\1/p' "$c/yocto/conf/layer.conf")
case " $compat " in *" wrynose "*) ;; *) fail "Yocto: LAYERSERIES_COMPAT '$compat' lacks wrynose (6.0, the current release)" ;; esac
# yocto-check-layer: a README with maintainer, patch and an address, a
# SECURITY file; the kernel append adds nothing unless asked.
for w in maintainer patch @; do grep -qi -- "$w" "$c/yocto/README.md" || fail "Yocto: README.md lacks '$w'"; done
[ -s "$c/yocto/SECURITY.md" ] || fail "Yocto: no SECURITY.md"
grep -v '^#' "$c/yocto/recipes-kernel/linux/linux-yocto_%.bbappend" | grep -v '^$' >"$T/bbappend"
file_is_line() {
	[ "$(cat "$1")" = "$2" ] || fail "$3: $(cat "$1")"
}
file_is_line "$T/bbappend" "require \${@bb.utils.contains('DISTRO_FEATURES', 'fwload', 'linux-yocto-fwload.inc', '', d)}" \
	"Yocto: the kernel append must add nothing but a conditional require"
grep -q '^SRC_URI = "${FWLOAD_GIT};' "$bb" || fail "Yocto: the source is not fetched from git"

# Alpine: package(), as abuild runs it (in the build directory).
al=$T/alpine
mkdir -p "$T/asrc" && cp "$c/alpine/fwload.initd" "$c/alpine/fwload-settle.initd" "$T/asrc/" || exit 111
cat >"$T/alpine.sh" <<EOS
cd "$T/src" || exit 111
. "$c/alpine/APKBUILD"
pkgdir="$al"
srcdir="$T/asrc"
set -e
package
EOS
sh "$T/alpine.sh" >"$T/out" 2>&1 || fail "Alpine: package() failed: $(cat "$T/out")"
for p in $progs; do [ -x "$al/usr/sbin/$p" ] || fail "Alpine: no /usr/sbin/$p"; done
for p in $libexec; do [ -x "$al/usr/libexec/fwload/$p" ] || fail "Alpine: no /usr/libexec/fwload/$p"; done
for d in sbin lib bin; do
	[ ! -e "$al/$d" ] || fail "Alpine: files outside /usr: /$d"
done
[ -x "$al/etc/init.d/fwload" ] || fail "Alpine: no /etc/init.d/fwload"
[ -x "$al/etc/init.d/fwload-settle" ] || fail "Alpine: no /etc/init.d/fwload-settle"
[ -f "$al/usr/share/man/man8/fwload.8" ] || fail "Alpine: no man pages (for fwload-doc)"
grep -q '^subpackages=".*\$pkgname-openrc' "$c/alpine/APKBUILD" || fail "Alpine: no -openrc subpackage"
# The parts' subpackages, as abuild splits them (amove: from the package
# to the subpackage): each takes its part's files and depends on fwload.
cat >"$T/alpine-split.sh" <<'EOS'
. "$APKBUILD"
pkgdir=$AL
amove() {
	for _f; do
		mkdir -p "$subpkgdir/${_f%/*}" && mv "$pkgdir/$_f" "$subpkgdir/$_f" || return 1
	done
}
set -e
for s in $subpackages; do
	case $s in *:*) ;; *) continue ;; esac
	subpkgdir=$SUB/${s%%:*}
	"${s#*:}"
	echo "${s%%:*} $depends"
done
EOS
APKBUILD=$c/alpine/APKBUILD AL=$al SUB=$T/alpine-sub sh "$T/alpine-split.sh" >"$T/split" 2>&1 ||
	fail "Alpine: the split functions failed: $(cat "$T/split")"
(cd "$T/alpine-sub" && find . ! -type d | LC_ALL=C sort) >"$T/split.files"
l "Alpine subpackages" "$(cut -d' ' -f1 "$T/split" | tr '\n' ' ')" "fwload-hotplugd fwload-extract fwload-run fwload-sha256 fwload-verify \
fwload-upload "
l "Alpine subpackages' depends" "$(cut -d' ' -f2- "$T/split" | sort -u)" "fwload=$VERSION-r0"
l "Alpine subpackages' files" "$(tr '\n' ' ' <"$T/split.files")" "./fwload-extract/usr/libexec/fwload/fwload-extract \
./fwload-hotplugd/usr/sbin/hotplugd ./fwload-run/usr/libexec/fwload/fwload-keep ./fwload-run/usr/libexec/fwload/fwload-runas \
./fwload-sha256/usr/libexec/fwload/fwload-sha256 ./fwload-upload/usr/libexec/fwload/fwloadctl-upload.sh \
./fwload-verify/usr/libexec/fwload/fwload-verify "
for f in fwload.initd fwload-settle.initd; do
	grep -qx "$(sha512sum <"$c/alpine/$f" | cut -d' ' -f1)  $f" "$c/alpine/APKBUILD" ||
		fail "Alpine: sha512sums does not match $f"
done

# OpenWrt: Build/Install (install-progs staged with MAKE_FLAGS' paths), then
# Package/fwload/install with $(INSTALL_*), from its package directory.
ow=$T/openwrt
owmk=$c/openwrt/fwload/Makefile
owopts=$(sed -n '/^MAKE_FLAGS += /,/[^\\]$/p' "$owmk" | tr -d '\\\n\t' | tr ' ' '\n' | grep '^[A-Z]*DIR=/\|^PREFIX=/' | tr '\n' ' ')
grep -q '^define Build/Compile' "$owmk" || fail "OpenWrt: no Build/Compile"
# shellcheck disable=SC2086 # a list of VAR=VALUE
make -s -C "$T/src" $owopts DESTDIR="$T/ipkg-install" install-progs >"$T/out" 2>&1 ||
	fail "OpenWrt: the staging install failed: $(cat "$T/out")"
# Each package (fwload, and a package a part: BuildPackage names them)
# into $ow/PACKAGE; $ow/all is all of them.
owpkgs=$(sed -n 's/^\$(eval \$(call BuildPackage,\(.*\)))$/\1/p' "$owmk" | tr '\n' ' ')
[ "$owpkgs" = "fwload fwload-extract fwload-run fwload-sha256 fwload-verify fwload-upload " ] ||
	fail "OpenWrt: packages '$owpkgs'"
for pkg in $owpkgs; do
	sed -n "/^define Package\/$pkg\/install/,/^endef/p" "$owmk" | sed -e '1d' -e '$d' >"$T/openwrt.mk"
	grep -q 'MAKE\|rm ' "$T/openwrt.mk" && fail "OpenWrt: Package/$pkg/install runs make or removes files: $(cat "$T/openwrt.mk")"
	for d in "$ow/$pkg" "$ow/all"; do
		sed -e 's|\$(PKG_INSTALL_DIR)|'"$T/ipkg-install"'|g; s|\$(1)|'"$d"'|g' \
			-e 's|\$(INSTALL_DIR)|install -d -m 755|; s|\$(INSTALL_DATA)|install -m 644|; s|\$(INSTALL_BIN)|install -m 755|' \
			-e 's|\$(INSTALL_CONF)|install -m 600|' "$T/openwrt.mk" >"$T/openwrt.sh"
		(cd "$c/openwrt/fwload" && sh -e "$T/openwrt.sh") >"$T/out" 2>&1 ||
			fail "OpenWrt: $pkg's install commands failed: $(cat "$T/openwrt.sh") -> $(cat "$T/out")"
	done
	[ "$pkg" = fwload ] || sed -n "/^define Package\/$pkg\$/,/^endef/p" "$owmk" | grep -q 'DEPENDS:=+fwload\|Package/fwload/Part' ||
		fail "OpenWrt: $pkg does not depend on fwload"
done
# fwload alone: no program of a part (the agent refuses what needs one).
for p in fwload-extract fwload-keep fwload-runas fwload-sha256 fwload-verify fwloadctl-upload.sh; do
	[ ! -e "$ow/fwload/usr/libexec/fwload/$p" ] || fail "OpenWrt: the fwload package has $p, a part's"
done
ow=$ow/all
# The whole product but the event sources procd replaces (the multiplexer
# hotplug, hotplugd): every program and script of the Makefile's install
# lists, where OpenWrt's paths put them, the hook and the init scripts.
{
	for p in $(make -s -C "$T/src" print-SBIN_PROGS print-SBIN_SCRIPTS); do
		case $p in hotplug | hotplugd) ;; *) echo "/usr/sbin/$p" ;; esac
	done
	for p in $(make -s -C "$T/src" print-LIBEXEC_PROGS print-LIBEXEC_SCRIPTS print-LIBEXEC_LIBS); do
		echo "/usr/libexec/fwload/$p"
	done
	printf '%s\n' /etc/fwload.conf /etc/hotplug.d/firmware/20-fwload /etc/init.d/fwload /etc/init.d/fwload-settle
} | LC_ALL=C sort >"$T/owwant"
tree "$ow" | grep -v '/$' | LC_ALL=C sort >"$T/owfiles"
cmp -s "$T/owwant" "$T/owfiles" ||
	fail "OpenWrt: Package/fwload/install is not the Makefile's install lists (less hotplug and hotplugd): $(diff "$T/owwant" "$T/owfiles")"
for f in /etc/fwload.conf /etc/fwload.rules; do
	sed -n '/^define Package\/fwload\/conffiles/,/^endef/p' "$owmk" | grep -qx "$f" || fail "OpenWrt: $f is not a conffile"
done
if [ -L "$ow/etc/hotplug.d/firmware/20-fwload" ] || [ ! -f "$ow/etc/hotplug.d/firmware/20-fwload" ]; then
	fail "OpenWrt: the hook is not a regular file"
fi
grep -q '^[^#]*/usr/libexec/fwload/firmware.agent firmware' "$ow/etc/hotplug.d/firmware/20-fwload" ||
	fail "OpenWrt: the sourced hook does not run the agent as a program"
grep -q '^[^#]*\<\(exit\|exec\)\>' "$ow/etc/hotplug.d/firmware/20-fwload" &&
	fail "OpenWrt: the sourced hook exits or execs (it runs inside hotplug-call)"
grep -q 'FWLOAD:-/usr/sbin/fwload}' "$ow/usr/libexec/fwload/firmware.agent" || fail "OpenWrt: the agent does not run /usr/sbin/fwload"
echo "note: Buildroot, Yocto, Alpine and OpenWrt install commands run against a built tree; versions $VERSION, license MIT, maintainer '$maint' everywhere"
