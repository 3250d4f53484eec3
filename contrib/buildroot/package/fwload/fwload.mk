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
FWLOAD_VERSION = 0.2.0
FWLOAD_SITE = $(realpath $(BR2_EXTERNAL_FWLOAD_PATH)/../..)
FWLOAD_SITE_METHOD = local
FWLOAD_LICENSE = MIT
FWLOAD_LICENSE_FILES = LICENSE

# The Makefile takes CC, CFLAGS, LDFLAGS and CROSS_COMPILE from the command
# line; TARGET_CONFIGURE_OPTS gives it Buildroot's (static only with
# BR2_STATIC_LIBS). Programs in /usr/sbin, helpers in /usr/libexec/fwload,
# the same paths for the build and the install (hotplugd compiles one in).
FWLOAD_MAKE_OPTS = \
	$(TARGET_CONFIGURE_OPTS) \
	CROSS_COMPILE="$(TARGET_CROSS)" \
	PREFIX=/usr \
	LIBEXECDIR=/usr/libexec/fwload

# The parts chosen in Config.in (the Makefile's WITH_ knobs): a part left
# out is neither built nor installed. hotplugd only as the event source.
FWLOAD_MAKE_OPTS += \
	WITH_HOTPLUGD=$(if $(BR2_PACKAGE_FWLOAD_SOURCE_HOTPLUGD),yes,no) \
	WITH_FWLOADCTL=$(if $(BR2_PACKAGE_FWLOAD_FWLOADCTL),yes,no) \
	WITH_UPLOAD=$(if $(BR2_PACKAGE_FWLOAD_UPLOAD),yes,no) \
	WITH_EXTRACT=$(if $(BR2_PACKAGE_FWLOAD_EXTRACT),yes,no) \
	WITH_RUN=$(if $(BR2_PACKAGE_FWLOAD_RUN),yes,no) \
	WITH_MANIFEST=$(if $(BR2_PACKAGE_FWLOAD_MANIFEST),yes,no) \
	WITH_VERIFY=$(if $(BR2_PACKAGE_FWLOAD_VERIFY),yes,no)

# A local source is copied with rsync, build products included: what a
# host "make" left in the checkout is removed before the cross build.
define FWLOAD_CLEAN_SOURCE_BUILD
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) clean
endef
FWLOAD_PRE_BUILD_HOOKS += FWLOAD_CLEAN_SOURCE_BUILD

define FWLOAD_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(FWLOAD_MAKE_OPTS) all
endef

# The event source for fwload.conf's SOURCE=. Not FWLOAD_SOURCE: that is
# Buildroot's own variable, the name of the file to download.
ifeq ($(BR2_PACKAGE_FWLOAD_SOURCE_HELPER),y)
FWLOAD_EVENT_SOURCE = helper
else
FWLOAD_EVENT_SOURCE = hotplugd
endif

# install-progs: programs, the hook and fwload.conf (with the chosen event
# source); no man pages or documentation on the target.
define FWLOAD_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(FWLOAD_MAKE_OPTS) \
		DESTDIR=$(TARGET_DIR) install-progs
	$(SED) 's/^#*SOURCE=.*/SOURCE=$(FWLOAD_EVENT_SOURCE)/' $(TARGET_DIR)/etc/fwload.conf
endef

# "fwloadctl setup" at boot before the coldplug of S10mdev or S10udev
# (S09fwload), "fwloadctl settle" after every other start script
# (S99fwload-settle). Without fwloadctl, no script: the kernel's own
# settings (below) set the chain up.
ifeq ($(BR2_PACKAGE_FWLOAD_FWLOADCTL),y)
define FWLOAD_INSTALL_INIT_SYSV
	$(INSTALL) -D -m 0755 $(FWLOAD_PKGDIR)/S09fwload \
		$(TARGET_DIR)/etc/init.d/S09fwload
	$(INSTALL) -D -m 0755 $(FWLOAD_PKGDIR)/S99fwload-settle \
		$(TARGET_DIR)/etc/init.d/S99fwload-settle
endef
endif

# fwload.service: "fwloadctl setup --hotplugd --own", then hotplugd, its
# main process, before systemd-udev-trigger; fwload-settle.service
# after the file systems. Buildroot enables both (systemctl preset-all).
define FWLOAD_INSTALL_INIT_SYSTEMD
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(FWLOAD_MAKE_OPTS) \
		DESTDIR=$(TARGET_DIR) SYSTEMDUNITDIR=/usr/lib/systemd/system \
		install-systemd
endef

# What the kernel must have for the chosen source (the whole list, with the
# optional options, is contrib/kernel/fwload.config: add it to
# BR2_LINUX_KERNEL_CONFIG_FRAGMENT_FILES).
# Without fwloadctl nothing sets the helper or forces the fallback at
# boot: the kernel does both from its start.
ifeq ($(BR2_PACKAGE_FWLOAD_SOURCE_HELPER)$(BR2_PACKAGE_FWLOAD_FWLOADCTL),yy)
define FWLOAD_LINUX_CONFIG_SOURCE
	$(call KCONFIG_ENABLE_OPT,CONFIG_UEVENT_HELPER)
	$(call KCONFIG_SET_OPT,CONFIG_UEVENT_HELPER_PATH,"")
endef
else ifeq ($(BR2_PACKAGE_FWLOAD_SOURCE_HELPER),y)
define FWLOAD_LINUX_CONFIG_SOURCE
	$(call KCONFIG_ENABLE_OPT,CONFIG_UEVENT_HELPER)
	$(call KCONFIG_SET_OPT,CONFIG_UEVENT_HELPER_PATH,"/usr/sbin/hotplug")
	$(call KCONFIG_ENABLE_OPT,CONFIG_FW_LOADER_USER_HELPER_FALLBACK)
endef
else
define FWLOAD_LINUX_CONFIG_SOURCE
	$(call KCONFIG_ENABLE_OPT,CONFIG_NET)
endef
endif

define FWLOAD_LINUX_CONFIG_FIXUPS
	$(call KCONFIG_ENABLE_OPT,CONFIG_FW_LOADER)
	$(call KCONFIG_ENABLE_OPT,CONFIG_FW_LOADER_USER_HELPER)
	$(call KCONFIG_ENABLE_OPT,CONFIG_SYSFS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_PROC_SYSCTL)
	$(FWLOAD_LINUX_CONFIG_SOURCE)
endef

# busybox mdev answers every firmware request itself (-1 for anything
# outside /lib/firmware), and Buildroot's S10mdev runs it as a netlink
# daemon (mdev -df), where no helper chain can keep firmware events from
# it: BusyBox is built without mdev's firmware loader. (What mdev could
# load is in /lib/firmware, which the kernel reads itself before any
# request reaches user space.)
define FWLOAD_BUSYBOX_CONFIG_FIXUPS
	$(call KCONFIG_DISABLE_OPT,CONFIG_FEATURE_MDEV_LOAD_FIRMWARE)
endef

$(eval $(generic-package))
