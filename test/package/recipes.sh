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

for s in "$c/alpine/APKBUILD" "$c/alpine/fwload.initd" "$c/buildroot/package/fwload/S11fwload" \
	"$c/openwrt/fwload/files/fwload.hotplug" "$c/openwrt/fwload/files/fwload.init"; do
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

# Buildroot: FWLOAD_INSTALL_TARGET_CMDS and FWLOAD_INSTALL_INIT_SYSV.
br=$T/buildroot
recipe buildroot "$c/buildroot/package/fwload/fwload.mk" '^define FWLOAD_INSTALL_TARGET_CMDS' '^endef' \
	-e 's|\$(TARGET_MAKE_ENV) ||; s|\$(MAKE)|make -s|; s|\$(@D)|.|' \
	-e 's|\$(FWLOAD_MAKE_OPTS)||; s|\$(TARGET_DIR)|'"$br"'|'
recipe buildroot-init "$c/buildroot/package/fwload/fwload.mk" '^define FWLOAD_INSTALL_INIT_SYSV' '^endef' \
	-e 's|\$(INSTALL)|install|; s|\$(FWLOAD_PKGDIR)|'"$c/buildroot/package/fwload"'|; s|\$(TARGET_DIR)|'"$br"'|'
for p in $progs; do [ -x "$br/sbin/$p" ] || fail "Buildroot: no /sbin/$p"; done
for p in $libexec; do [ -x "$br/lib/fwload/$p" ] || fail "Buildroot: no /lib/fwload/$p"; done
[ -x "$br/etc/init.d/S11fwload" ] || fail "Buildroot: no /etc/init.d/S11fwload"
[ -e "$br/usr/share/man" ] && fail "Buildroot: man pages on the target"

# Yocto: do_install, oe_runmake being make with EXTRA_OEMAKE, with poky's
# paths (usrmerge: base_sbindir is /usr/sbin).
yo=$T/yocto
oemake=$(sed -n '/^EXTRA_OEMAKE = "/,/"$/p' "$bb" | tr -d '\\\n\t' | sed 's/^EXTRA_OEMAKE = "\(.*\)"$/\1/')
[ -n "$oemake" ] || fail "Yocto: no EXTRA_OEMAKE in $bb"
recipe yocto "$bb" '^do_install() {' '^}' \
	-e "s|oe_runmake|make -s $oemake|" -e 's|\${D}|'"$yo"'|g; s|\${base_sbindir}|/usr/sbin|g' \
	-e 's|\${nonarch_base_libdir}|/usr/lib|g; s|\${sysconfdir}|/etc|g; s|\${mandir}|/usr/share/man|g' \
	-e 's|\${docdir}|/usr/share/doc|g; s|\${BPN}|fwload|g'
for p in $progs; do [ -x "$yo/usr/sbin/$p" ] || fail "Yocto: no /usr/sbin/$p"; done
for p in $libexec; do [ -x "$yo/usr/lib/fwload/$p" ] || fail "Yocto: no /usr/lib/fwload/$p"; done
[ -f "$yo/usr/share/man/man8/fwload.8" ] || fail "Yocto: no man pages (for fwload-doc)"

# Alpine: package(), as abuild runs it (in the build directory).
al=$T/alpine
mkdir -p "$T/asrc" && cp "$c/alpine/fwload.initd" "$T/asrc/" || exit 111
cat >"$T/alpine.sh" <<EOS
cd "$T/src" || exit 111
. "$c/alpine/APKBUILD"
pkgdir="$al"
srcdir="$T/asrc"
set -e
package
EOS
sh "$T/alpine.sh" >"$T/out" 2>&1 || fail "Alpine: package() failed: $(cat "$T/out")"
for p in $progs; do [ -x "$al/sbin/$p" ] || fail "Alpine: no /sbin/$p"; done
[ -x "$al/etc/init.d/fwload" ] || fail "Alpine: no /etc/init.d/fwload"
[ -f "$al/usr/share/man/man8/fwload.8" ] || fail "Alpine: no man pages (for fwload-doc)"

# OpenWrt: Package/fwload/install, from its package directory.
ow=$T/openwrt
sed -n '/^define Package\/fwload\/install/,/^endef/p' "$c/openwrt/fwload/Makefile" | sed -e '1d' -e '$d' \
	-e 's|\$(MAKE)|make -s|; s|\$(PKG_BUILD_DIR)|'"$T/src"'|; s|\$(MAKE_FLAGS)||; s|\$(1)|'"$ow"'|g' \
	-e 's|\$(INSTALL_DIR)|install -d -m 755|; s|\$(INSTALL_DATA)|install -m 644|; s|\$(INSTALL_BIN)|install -m 755|' \
	>"$T/openwrt.sh"
(cd "$c/openwrt/fwload" && sh -e "$T/openwrt.sh") >"$T/out" 2>&1 ||
	fail "OpenWrt: its install commands failed: $(cat "$T/openwrt.sh") -> $(cat "$T/out")"
for p in $progs; do
	case $p in hotplug | hotplugd) [ -e "$ow/sbin/$p" ] && fail "OpenWrt: /sbin/$p installed (procd is the event source)" ;;
	*) [ -x "$ow/sbin/$p" ] || fail "OpenWrt: no /sbin/$p" ;;
	esac
done
[ -x "$ow/lib/fwload/firmware.agent" ] || fail "OpenWrt: no /lib/fwload/firmware.agent"
hooks=$(cd "$ow/etc/hotplug.d" && find . ! -type d)
[ "$hooks" = ./firmware/20-fwload ] || fail "OpenWrt: /etc/hotplug.d holds: $hooks (hotplug-call sources every file there)"
if [ -L "$ow/etc/hotplug.d/firmware/20-fwload" ] || [ ! -f "$ow/etc/hotplug.d/firmware/20-fwload" ]; then
	fail "OpenWrt: the hook is not a regular file"
fi
grep -q '^[^#]*/lib/fwload/firmware.agent firmware' "$ow/etc/hotplug.d/firmware/20-fwload" ||
	fail "OpenWrt: the sourced hook does not run the agent as a program"
grep -q '^[^#]*\<\(exit\|exec\)\>' "$ow/etc/hotplug.d/firmware/20-fwload" &&
	fail "OpenWrt: the sourced hook exits or execs (it runs inside hotplug-call)"
echo "note: Buildroot, Yocto, Alpine and OpenWrt install commands run against a built tree; versions $VERSION, license MIT everywhere"
