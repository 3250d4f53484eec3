################################################################################
#
# fwload
#
################################################################################

# SPDX-License-Identifier: MIT

# This BR2_EXTERNAL tree lives in fwload's source (contrib/buildroot), and
# builds that source. To build a release tarball instead ("make dist"), set
#   FWLOAD_SITE = https://... (where you keep fwload-$(FWLOAD_VERSION).tar.gz)
#   FWLOAD_SITE_METHOD = wget
# and add its sha256 to fwload.hash.
FWLOAD_VERSION = 0.1.0
FWLOAD_SITE = $(realpath $(BR2_EXTERNAL_FWLOAD_PATH)/../..)
FWLOAD_SITE_METHOD = local
FWLOAD_LICENSE = MIT
FWLOAD_LICENSE_FILES = LICENSE

# The Makefile takes CC, CFLAGS, LDFLAGS and CROSS_COMPILE from the command
# line; TARGET_CONFIGURE_OPTS gives it Buildroot's (static only with
# BR2_STATIC_LIBS). Default paths: /sbin, /lib/fwload, /etc, /etc/hotplug.d.
FWLOAD_MAKE_OPTS = $(TARGET_CONFIGURE_OPTS) CROSS_COMPILE="$(TARGET_CROSS)"

define FWLOAD_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(FWLOAD_MAKE_OPTS) all
endef

# install-progs: programs, the hook and fwload.conf; no man pages or
# documentation on the target.
define FWLOAD_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(FWLOAD_MAKE_OPTS) \
		DESTDIR=$(TARGET_DIR) install-progs
endef

# "fwloadctl setup" at boot, after S10mdev (it keeps mdev for every other
# subsystem, and never lets it see a firmware event).
define FWLOAD_INSTALL_INIT_SYSV
	$(INSTALL) -D -m 0755 $(FWLOAD_PKGDIR)/S11fwload \
		$(TARGET_DIR)/etc/init.d/S11fwload
endef

# What the kernel must have (the whole list, with the optional ones, is
# contrib/kernel/fwload.config: add it to
# BR2_LINUX_KERNEL_CONFIG_FRAGMENT_FILES).
define FWLOAD_LINUX_CONFIG_FIXUPS
	$(call KCONFIG_ENABLE_OPT,CONFIG_FW_LOADER)
	$(call KCONFIG_ENABLE_OPT,CONFIG_FW_LOADER_USER_HELPER)
	$(call KCONFIG_ENABLE_OPT,CONFIG_PROC_SYSCTL)
	$(call KCONFIG_ENABLE_OPT,CONFIG_UEVENT_HELPER)
endef

# busybox mdev answers every firmware request itself, and Buildroot runs it
# as a netlink daemon (S10mdev: mdev -df), where no helper chain can keep
# firmware events from it: with fwload selected, BusyBox is built without
# mdev's firmware loader. (Everything mdev could load is in /lib/firmware,
# which the kernel reads itself before any request reaches user space.)
ifeq ($(BR2_PACKAGE_FWLOAD),y)
define FWLOAD_BUSYBOX_NO_MDEV_FIRMWARE
	$(call KCONFIG_DISABLE_OPT,CONFIG_FEATURE_MDEV_LOAD_FIRMWARE)
endef
# A newline first: each fixup is a command line of its own.
define FWLOAD_NEWLINE


endef
BUSYBOX_KCONFIG_FIXUP_CMDS += $(FWLOAD_NEWLINE)$(FWLOAD_BUSYBOX_NO_MDEV_FIRMWARE)
endif

$(eval $(generic-package))
