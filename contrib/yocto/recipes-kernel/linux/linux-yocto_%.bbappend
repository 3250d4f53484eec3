# SPDX-License-Identifier: MIT
# The kernel options fwload needs (the sysfs fallback, the uevent helper),
# as a configuration fragment, only where the distribution asks for them:
#   DISTRO_FEATURES:append = " fwload"
# (in local.conf or the distro configuration). Without that this append
# adds nothing, so adding the layer changes no other recipe. For another
# kernel recipe, require the same .inc from its bbappend (recipes that
# inherit kernel-yocto apply .cfg fragments), or merge
# contrib/kernel/fwload.config with scripts/kconfig/merge_config.sh.
require ${@bb.utils.contains('DISTRO_FEATURES', 'fwload', 'linux-yocto-fwload.inc', '', d)}
