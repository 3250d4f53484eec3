# SPDX-License-Identifier: MIT
# fwload - user space for the Linux firmware sysfs fallback.
#
#   make                      build fwload and fwload-sha256 (static)
#   make check                fast tests, then the real-kernel tests
#   make demo                 load a firmware through the whole chain on a UML kernel
#   make install DESTDIR=... PREFIX=...
#   make CC=musl-gcc          a tiny static fwload (then strip it)
#   make CROSS_COMPILE=aarch64-linux-gnu-

PREFIX     ?=
SBINDIR    ?= $(PREFIX)/sbin
LIBEXECDIR ?= $(PREFIX)/lib/fwload
SYSCONFDIR ?= /etc
HOTPLUGDIR ?= $(SYSCONFDIR)/hotplug.d
DESTDIR    ?=

VERSION := $(shell cat VERSION)

# CC, CFLAGS, LDFLAGS, CPPFLAGS and CROSS_COMPILE come from the command line
# or the environment, as package builders pass them. make's own default CC
# ("cc") gives way to $(CROSS_COMPILE)gcc.
CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC      = $(CROSS_COMPILE)gcc
endif
ifeq ($(origin STRIP),undefined)
STRIP   = $(CROSS_COMPILE)strip
endif
CFLAGS  ?= -Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables
LDFLAGS ?= -static -Wl,--gc-sections -Wl,-z,noseparate-code -Wl,-z,norelro
# Warnings are errors only in the test builds (make check and friends pass
# WERROR=-Werror): a newer compiler must not break a release build.
WERROR  ?=
WARN    = -std=c11 -Wall -Wextra $(WERROR) -DFWLOAD_VERSION='"$(VERSION)"'
INSTALL ?= install
SHELLS  ?= dash busybox

PROGS     = fwload fwload-sha256
CHECK_BIN = $(PROGS) test/fwload-dyn test/fault.so test/kernel/fwtrigger
FUZZ_BIN  = test/fuzz/fwload_args

.DELETE_ON_ERROR:
.PHONY: stage initramfs.list initramfs.cpio
.PHONY: all check check-fast check-cross check-kernel demo bench fuzz install install-strip uninstall \
	clean shellcheck

all: $(PROGS)

fwload: fwload.c
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ fwload.c
fwload-sha256: fwload-sha256.c
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ fwload-sha256.c

# Test builds: a dynamically linked fwload, and a write()/sendfile() fault
# injector to LD_PRELOAD into it.
test/fwload-dyn: fwload.c
	$(CC) $(WARN) -O2 -g -o $@ fwload.c
test/fault.so: test/fault.c
	$(CC) $(WARN) -O2 -fPIC -shared -o $@ test/fault.c -ldl

test/kernel/fwtrigger: test/kernel/fwtrigger.c
	$(CC) $(WARN) -O2 -static -o $@ test/kernel/fwtrigger.c

# The test targets first install what they need (test/deps.sh: apt-get,
# as root), then build, then run.
check:
	sh test/deps.sh all
	$(MAKE) WERROR=-Werror $(CHECK_BIN)
	SHELLS="$(SHELLS)" sh test/check

check-fast:
	sh test/deps.sh fast
	$(MAKE) WERROR=-Werror $(PROGS) test/fwload-dyn test/fault.so
	SHELLS="$(SHELLS)" sh test/run-unit

check-cross:
	sh test/deps.sh cross
	sh test/cross.sh

check-kernel:
	sh test/deps.sh kernel
	$(MAKE) WERROR=-Werror $(PROGS) test/kernel/fwtrigger test/fwload-dyn test/fault.so
	sh test/kernel/run

demo:
	sh test/deps.sh kernel
	$(MAKE) $(PROGS) test/kernel/fwtrigger
	sh test/kernel/demo.sh

# Figures, no verdicts: footprint, and timings against the kernel's own
# loader, busybox mdev and a cat agent on the test kernel (bench/run).
bench:
	sh test/deps.sh bench
	$(MAKE) $(PROGS) test/kernel/fwtrigger
	sh bench/run

# Bounded fuzzing: FUZZ_SECONDS of libFuzzer on fwload, FUZZ_COUNT generated
# environments for the agent (test/fuzz/run).
fuzz:
	sh test/deps.sh fuzz
	$(MAKE) fwload test/fuzz/fwload_args
	sh test/fuzz/run

test/fuzz/fwload_args: test/fuzz/fwload_args.c fwload.c
	clang -std=c11 -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined -o $@ test/fuzz/fwload_args.c

shellcheck:
	shellcheck -s sh hotplug firmware.agent fwloadctl fwload-lib.sh test/check test/lint test/deps.sh test/run-unit test/lib.sh \
		test/unit/*.sh test/kernel/*.sh test/kernel/run test/kernel/guest-* \
		test/kernel/cases/*.sh test/kernel/initramfs.sh test/kernel/initramfs-init \
		test/fuzz/run test/fuzz/agent-env.sh test/cross.sh tools/*.sh bench/run bench/guest-bench

# Paths in the scripts are the defaults of this Makefile; install rewrites
# them when SBINDIR, SYSCONFDIR, HOTPLUGDIR or LIBEXECDIR differ.
SUBST = sed -e 's|HOTPLUG_DIR:-/etc/hotplug.d}|HOTPLUG_DIR:-$(HOTPLUGDIR)}|' \
	    -e 's|FWLOAD_CONF:-/etc/fwload.conf}|FWLOAD_CONF:-$(SYSCONFDIR)/fwload.conf}|' \
	    -e 's|FWLOAD:-/sbin/fwload}|FWLOAD:-$(SBINDIR)/fwload}|' \
	    -e 's|FWLOAD_SHA256:-/lib/fwload/fwload-sha256}|FWLOAD_SHA256:-$(LIBEXECDIR)/fwload-sha256}|' \
	    -e 's|FWLOAD_HOTPLUG:-/sbin/hotplug}|FWLOAD_HOTPLUG:-$(SBINDIR)/hotplug}|' \
	    -e 's|:-/sbin/|:-$(SBINDIR)/|' -e 's|:-/lib/fwload|:-$(LIBEXECDIR)|' -e 's|@VERSION@|$(VERSION)|'

install: $(PROGS)
	$(INSTALL) -d -m 755 $(DESTDIR)$(SBINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SYSCONFDIR) \
		$(DESTDIR)$(HOTPLUGDIR)/firmware
	$(INSTALL) -m 755 fwload $(DESTDIR)$(SBINDIR)/fwload
	$(INSTALL) -m 755 fwload-sha256 $(DESTDIR)$(LIBEXECDIR)/fwload-sha256
	$(SUBST) hotplug >$(DESTDIR)$(SBINDIR)/hotplug
	chmod 755 $(DESTDIR)$(SBINDIR)/hotplug
	$(SUBST) firmware.agent >$(DESTDIR)$(LIBEXECDIR)/firmware.agent
	chmod 755 $(DESTDIR)$(LIBEXECDIR)/firmware.agent
	$(INSTALL) -m 644 fwload-lib.sh $(DESTDIR)$(LIBEXECDIR)/fwload-lib.sh
	$(SUBST) fwloadctl >$(DESTDIR)$(SBINDIR)/fwloadctl
	chmod 755 $(DESTDIR)$(SBINDIR)/fwloadctl
	ln -sf $(LIBEXECDIR)/firmware.agent $(DESTDIR)$(HOTPLUGDIR)/firmware/50-firmware.hotplug
	[ -e $(DESTDIR)$(SYSCONFDIR)/fwload.conf ] || \
		$(INSTALL) -m 644 etc/fwload.conf $(DESTDIR)$(SYSCONFDIR)/fwload.conf

# Early user space: the installed files as a gen_init_cpio list (for
# CONFIG_INITRAMFS_SOURCE, or usr/gen_init_cpio), and as a newc archive to
# append to an initramfs (cat base.cpio initramfs.cpio > initrd). Both are
# made from a staging install, so they hold exactly what "make install" does.
STAGE = $(CURDIR)/.stage

stage: $(PROGS)
	rm -rf $(STAGE)
	$(MAKE) -s install DESTDIR=$(STAGE)

initramfs.list: stage
	sh tools/cpio-list.sh $(STAGE) >$@

initramfs.cpio: stage
	cd $(STAGE) && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet >$(CURDIR)/$@

# The same, with the programs stripped by the target's strip.
install-strip: install
	$(STRIP) $(DESTDIR)$(SBINDIR)/fwload $(DESTDIR)$(LIBEXECDIR)/fwload-sha256

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/fwload $(DESTDIR)$(SBINDIR)/hotplug $(DESTDIR)$(SBINDIR)/fwloadctl \
		$(DESTDIR)$(LIBEXECDIR)/firmware.agent $(DESTDIR)$(LIBEXECDIR)/fwload-lib.sh \
		$(DESTDIR)$(LIBEXECDIR)/fwload-sha256 \
		$(DESTDIR)$(HOTPLUGDIR)/firmware/50-firmware.hotplug
	-rmdir $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(HOTPLUGDIR)/firmware \
		$(DESTDIR)$(HOTPLUGDIR)/default $(DESTDIR)$(HOTPLUGDIR) 2>/dev/null
	@echo "kept $(DESTDIR)$(SYSCONFDIR)/fwload.conf (your configuration)"

clean:
	rm -f $(CHECK_BIN) $(FUZZ_BIN) initramfs.list initramfs.cpio
	rm -rf $(STAGE)
