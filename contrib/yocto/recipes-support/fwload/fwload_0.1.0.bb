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

# The release tarball, as "make dist" makes it at the top of the fwload
# checkout this layer lives in (contrib/yocto). To fetch it from elsewhere,
# set in local.conf or a bbappend:
#   FWLOAD_SITE = "https://..."
#   SRC_URI[sha256sum] = "<sha256sum of fwload-${PV}.tar.gz>"
FWLOAD_TOPDIR := "${@os.path.normpath(os.path.join(d.getVar('THISDIR'), '../../../..'))}"
FWLOAD_SITE ??= "file://${FWLOAD_TOPDIR}"
SRC_URI = "${FWLOAD_SITE}/fwload-${PV}.tar.gz"

# The Makefile takes CC, CFLAGS, LDFLAGS and CPPFLAGS from the environment,
# where bitbake puts them; nothing else to pass for a cross build. The
# distribution's directories go to the build as well as to the install (a
# C program may compile a path in).
EXTRA_OEMAKE = "SBINDIR=${base_sbindir} LIBEXECDIR=${nonarch_base_libdir}/fwload \
	SYSCONFDIR=${sysconfdir} HOTPLUGDIR=${sysconfdir}/hotplug.d \
	MANDIR=${mandir} DOCDIR=${docdir}/${BPN}"

do_compile() {
	oe_runmake
}

do_install() {
	oe_runmake install DESTDIR=${D}
}

FILES:${PN} += "${nonarch_base_libdir}/fwload ${sysconfdir}/hotplug.d"
CONFFILES:${PN} = "${sysconfdir}/fwload.conf"

# Nothing starts on its own: run "fwloadctl setup" once at boot, from your
# init (an initramfs /init, a sysvinit script, a systemd oneshot).
# The kernel options are in recipes-kernel/linux (linux-yocto) and in
# contrib/kernel/fwload.config for other kernel recipes.
