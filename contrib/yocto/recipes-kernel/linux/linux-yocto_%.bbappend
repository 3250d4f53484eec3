# SPDX-License-Identifier: MIT
# The kernel options fwload needs (the sysfs fallback, the uevent helper),
# as a configuration fragment: files/fwload.cfg is a link to
# contrib/kernel/fwload.config. For another kernel recipe, add the same
# two lines to its bbappend (recipes that inherit kernel-yocto apply .cfg
# fragments), or merge the file with scripts/kconfig/merge_config.sh.
FILESEXTRAPATHS:prepend := "${THISDIR}/files:"
SRC_URI += "file://fwload.cfg"
