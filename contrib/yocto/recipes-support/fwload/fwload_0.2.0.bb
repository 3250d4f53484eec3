# SPDX-License-Identifier: MIT
SUMMARY = "User space for the Linux firmware sysfs fallback"
DESCRIPTION = "fwload answers the kernel's firmware requests \
(/sys/class/firmware/*/loading, data) from the board's own directories: \
a small C program that performs the loading protocol, and POSIX sh \
scripts (busybox ash is enough) that find the image, with compressed \
images, SHA-256 manifests and board rules."
SECTION = "base"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://LICENSE;md5=664032683a5904f381ee594d3729ddee"

# The source: the git repository this layer lives in (contrib/yocto), the
# commit SRCREV names (by default the newest of the branch: a product
# pins the commit of its release tag, v${PV}, in a bbappend or
# local.conf). FWLOAD_GIT points elsewhere (a mirror, a fork).
FWLOAD_TOPDIR := "${@os.path.normpath(os.path.join(d.getVar('THISDIR'), '../../../..'))}"
FWLOAD_GIT ??= "git://${FWLOAD_TOPDIR};protocol=file;branch=main"
SRC_URI = "${FWLOAD_GIT};destsuffix=${BP}"
SRCREV ??= "${AUTOREV}"
PV .= "+git"

inherit systemd update-rc.d

# The Makefile takes CC, CFLAGS, LDFLAGS and CPPFLAGS from the environment,
# where bitbake puts them; nothing else to pass for a cross build. The
# distribution's directories go to the build as well as to the install
# (hotplugd compiles SBINDIR in).
EXTRA_OEMAKE = "SBINDIR=${base_sbindir} LIBEXECDIR=${libexecdir}/fwload \
	SYSCONFDIR=${sysconfdir} HOTPLUGDIR=${sysconfdir}/hotplug.d \
	MANDIR=${mandir} DOCDIR=${docdir}/${BPN} \
	SYSTEMDUNITDIR=${systemd_system_unitdir}"

# The optional parts (the Makefile's WITH_ knobs), all on by default; one
# left out of PACKAGECONFIG is neither built nor installed, and what needs
# it is refused at run time. upload needs fwloadctl; so do the init
# scripts and systemd units, which run it (without fwloadctl, the kernel's
# own CONFIG_UEVENT_HELPER_PATH and CONFIG_FW_LOADER_USER_HELPER_FALLBACK
# set the chain up).
PACKAGECONFIG ??= "fwloadctl hotplugd upload extract run manifest verify"
PACKAGECONFIG[fwloadctl] = "WITH_FWLOADCTL=yes,WITH_FWLOADCTL=no"
PACKAGECONFIG[hotplugd] = "WITH_HOTPLUGD=yes,WITH_HOTPLUGD=no"
PACKAGECONFIG[upload] = "WITH_UPLOAD=yes,WITH_UPLOAD=no"
PACKAGECONFIG[extract] = "WITH_EXTRACT=yes,WITH_EXTRACT=no"
PACKAGECONFIG[run] = "WITH_RUN=yes,WITH_RUN=no"
PACKAGECONFIG[manifest] = "WITH_MANIFEST=yes,WITH_MANIFEST=no"
PACKAGECONFIG[verify] = "WITH_VERIFY=yes,WITH_VERIFY=no"
EXTRA_OEMAKE += "${PACKAGECONFIG_CONFARGS}"
FWLOAD_INIT = "${@bb.utils.contains('PACKAGECONFIG', 'fwloadctl', 'true', 'false', d)}"

do_compile() {
	oe_runmake
}

do_install() {
	oe_runmake install DESTDIR=${D}
	if ${FWLOAD_INIT} && ${@bb.utils.contains('DISTRO_FEATURES', 'systemd', 'true', 'false', d)}; then
		oe_runmake install-systemd DESTDIR=${D}
	fi
	if ${FWLOAD_INIT} && ${@bb.utils.contains('DISTRO_FEATURES', 'sysvinit', 'true', 'false', d)}; then
		install -d ${D}${INIT_D_DIR}
		for s in fwload fwload-settle; do
			sed 's|/sbin/fwloadctl|${base_sbindir}/fwloadctl|' ${S}/contrib/init/sysvinit/$s \
				>${D}${INIT_D_DIR}/$s
			chmod 0755 ${D}${INIT_D_DIR}/$s
		done
	fi
}

# fwload-settle: the init script that ends holding (sysvinit; one init
# script a package for update-rc.d).
PACKAGES =+ "${PN}-settle"
FILES:${PN}-settle = "${INIT_D_DIR}/fwload-settle"
RDEPENDS:${PN}-settle = "${PN}"
RRECOMMENDS:${PN} = "${@bb.utils.contains('DISTRO_FEATURES', 'sysvinit', '${PN}-settle', '', d)}"
FILES:${PN} += "${sysconfdir}/hotplug.d"
CONFFILES:${PN} = "${sysconfdir}/fwload.conf"

# Started at boot, before the coldplug: fwload.service (systemd: "fwloadctl
# setup --hotplugd --own", then hotplugd, its main process, before
# systemd-udev-trigger.service) and fwload-settle.service (settle after local-fs.target and
# remote-fs.target); or /etc/init.d/fwload (sysvinit: "fwloadctl setup",
# S04fwload: after S03mountall.sh mounts /run, before S04udev, eudev's
# script, whose udevadm trigger loads the drivers) and
# /etc/init.d/fwload-settle (after S15mountnfs.sh).
SYSTEMD_SERVICE:${PN} = "${@bb.utils.contains('PACKAGECONFIG', 'fwloadctl', 'fwload.service fwload-settle.service', '', d)}"
INITSCRIPT_PACKAGES = "${@bb.utils.contains('PACKAGECONFIG', 'fwloadctl', '${PN} ${PN}-settle', '', d)}"
INITSCRIPT_NAME:${PN} = "fwload"
INITSCRIPT_PARAMS:${PN} = "start 04 S . stop 95 0 6 ."
INITSCRIPT_NAME:${PN}-settle = "fwload-settle"
INITSCRIPT_PARAMS:${PN}-settle = "start 16 2 3 4 5 ."

# The kernel options: recipes-kernel/linux (linux-yocto, when
# DISTRO_FEATURES has "fwload"), contrib/kernel/fwload.config for others.
