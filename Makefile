# SPDX-License-Identifier: MIT
# fwload - user space for the Linux firmware sysfs fallback.
#
#   make                      build the C programs (static)
#   make check                lint, fast, cross, real-kernel, arm64 board, then packaging tests
#   make check-arm64          the arm64 board alone (test/arm64/run: qemu-system-aarch64)
#   make check-boot           the systemd boot alone (test/boot/run: Debian 12 with the package)
#   make check-package        the packaging tests alone (test/package/run)
#   make check-asan           the unit cases against sanitizer builds of the C programs (test/asan)
#   make demo                 load a firmware through the whole chain on a real kernel (UML, else qemu)
#   make install DESTDIR=... PREFIX=...
#   make install-strip        the same, C programs stripped with $(STRIP)
#   make dist                 fwload-$(VERSION).tar.gz from the files in git
#   make CC=musl-gcc          a tiny static fwload
#   make CROSS_COMPILE=aarch64-linux-gnu-

# Where "make install" puts things. Each can be set on the command line or in
# the environment; DESTDIR goes in front of each at install time only (the
# installed files name the paths without it).
PREFIX      ?=
BINDIR      ?= $(PREFIX)/bin
SBINDIR     ?= $(PREFIX)/sbin
LIBEXECDIR  ?= $(PREFIX)/lib/fwload
SYSCONFDIR  ?= /etc
HOTPLUGDIR  ?= $(SYSCONFDIR)/hotplug.d
DATAROOTDIR ?= $(or $(PREFIX),/usr)/share
MANDIR      ?= $(DATAROOTDIR)/man
DOCDIR      ?= $(DATAROOTDIR)/doc/fwload
RUNDIR      ?= /run/fwload
SYSTEMDUNITDIR ?= $(or $(PREFIX),/usr)/lib/systemd/system
DESTDIR     ?=

# (A copy of fwload.c, util.h and this Makefile alone, as test/cross.sh and bench/run
# make, builds too: version "unknown".)
VERSION := $(or $(shell cat VERSION 2>/dev/null),unknown)

# What is built and installed, by kind. A new program goes into one of these
# lists (and gets its man page as man/NAME.8):
#   C_PROGS          built from NAME.c by the rule below
#   SBIN_PROGS, LIBEXEC_PROGS, BIN_PROGS
#                    C programs installed as built (stripped by install-strip
#                    and in the initramfs)
#   SBIN_SCRIPTS, LIBEXEC_SCRIPTS, BIN_SCRIPTS
#                    shell scripts, their default paths rewritten (SUBST)
#   LIBEXEC_LIBS     shell code the scripts source (SUBST, mode 644, no page)
#
# The parts a board may leave out, each yes (the default) or no. A part
# switched off is neither built by "make" nor installed, its man page
# included; what is installed refuses, in one line naming the part, the
# settings and rules that need it (never a load without the check):
#   WITH_HOTPLUGD   hotplugd, the netlink event source
#   WITH_FWLOADCTL  fwloadctl: setup, rescan, settle, status, explain (and
#                   the systemd units, which run it)
#   WITH_UPLOAD     fwloadctl upload (fwloadctl-upload.sh; with fwloadctl)
#   WITH_EXTRACT    extract= rules (fwload-extract)
#   WITH_RUN        run= and user= rules (fwload-keep, fwload-runas)
#   WITH_MANIFEST   MANIFEST= (fwload-sha256)
#   WITH_VERIFY     SIGNED=, a signed manifest (fwload-verify)
# The rest is the chain itself, always there: hotplug, firmware.agent and
# fwload-lib.sh, fwload, and the agent's helpers fwload-stamp (the cache's
# check), fwload-log (its log lines) and fwload-pending (a request's key).
WITH_HOTPLUGD  ?= yes
WITH_FWLOADCTL ?= yes
WITH_UPLOAD    ?= yes
WITH_EXTRACT   ?= yes
WITH_RUN       ?= yes
WITH_MANIFEST  ?= yes
WITH_VERIFY    ?= yes
PARTS = HOTPLUGD FWLOADCTL UPLOAD EXTRACT RUN MANIFEST VERIFY
$(foreach p,$(PARTS),$(if $(filter-out yes no,$(WITH_$(p))),\
	$(error WITH_$(p)=$(WITH_$(p)): yes or no)))
$(if $(filter yes,$(WITH_UPLOAD)),$(if $(filter no,$(WITH_FWLOADCTL)),\
	$(error WITH_UPLOAD=yes needs WITH_FWLOADCTL=yes: upload is a command of fwloadctl)))
with = $(if $(filter yes,$(WITH_$(1))),$(2))

C_PROGS         = fwload fwload-sha256 fwload-extract fwload-runas fwload-verify fwload-stamp fwload-pending fwload-log fwload-keep hotplugd
SBIN_PROGS      = fwload $(call with,HOTPLUGD,hotplugd)
LIBEXEC_PROGS   = fwload-stamp fwload-pending fwload-log $(call with,MANIFEST,fwload-sha256) \
	$(call with,EXTRACT,fwload-extract) $(call with,RUN,fwload-runas fwload-keep) \
	$(call with,VERIFY,fwload-verify)
BIN_PROGS       =
SBIN_SCRIPTS    = hotplug $(call with,FWLOADCTL,fwloadctl)
LIBEXEC_SCRIPTS = firmware.agent
LIBEXEC_LIBS    = fwload-lib.sh $(call with,UPLOAD,fwloadctl-upload.sh)
BIN_SCRIPTS     =
# The C programs of the parts chosen (make's default goal; C_PROGS: all).
PROGS = $(SBIN_PROGS) $(LIBEXEC_PROGS) $(BIN_PROGS)
MAN8 = $(patsubst %,man/%.8,$(SBIN_PROGS) $(LIBEXEC_PROGS) $(BIN_PROGS) \
	$(SBIN_SCRIPTS) $(LIBEXEC_SCRIPTS) $(BIN_SCRIPTS))
MAN5 = man/fwload.conf.5 man/fwload.rules.5
# The systemd units (make install-systemd; they run fwloadctl).
UNITS = $(call with,FWLOADCTL,fwload.service fwload-settle.service)
DOCS = README.md NEWS etc/fwload.rules.example

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
# The default: small static programs (-z noseparate-code and norelro: no
# padding to a page boundary in the file; common-page-size=64 lets the
# segments share a page in the file: 576 bytes off fwload with musl, the
# others within 64 either way; in memory max-page-size decides).
CFLAGS  ?= -Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables
LDFLAGS ?= -static -Wl,--gc-sections -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,-z,common-page-size=64
# Warnings are errors only in the test builds (make check and friends pass
# WERROR=-Werror): a newer compiler must not break a release build.
WERROR  ?=
WARN    = -std=c11 -Wall -Wextra $(WERROR) -DFWLOAD_VERSION='"$(VERSION)"'
INSTALL ?= install
SHELLS  ?= dash busybox

CHECK_BIN = $(C_PROGS) test/fwload-dyn test/fwload-extract-dyn test/fault.so test/kernel/fwtrigger test/kernel/lockhold \
	test/kernel/xsave-size \
	test/nlsend test/hotplugd-filter test/hotplugd-standin test/ptyrun test/verify-diff
FUZZ_BIN  = test/fuzz/fwload_args

.DELETE_ON_ERROR:
.PHONY: initramfs initramfs.list initramfs.cpio
.PHONY: FORCE all check check-fast check-cross check-kernel check-stock check-boot check-arm64 check-package check-asan demo bench fuzz \
	install install-progs install-man install-doc install-strip install-systemd uninstall dist clean shellcheck

all: $(PROGS)

# Each C program is one file, NAME.c, plus the headers they share (line.h,
# messages; util.h, the generic layer; request.h, what a request is; log.h,
# the log sinks); the version and the paths of the install (PATHS) are compiled in,
# and CPPFLAGS_NAME (if set) gives one program definitions of its own.
# Each program's compile command is recorded in .NAME.cmd, which is
# rewritten only when the command changes: a program is rebuilt when it
# would be compiled differently (another CC or CFLAGS, or another RUNDIR or
# SBINDIR compiled in), so "make && make install PREFIX=/usr", or a host
# build followed by a cross build in the same tree, never installs a
# program built for other paths or another machine. -Werror is left out:
# it changes no program (the test builds pass it, then the kernel layer's
# guest installs from the same tree, read-only).
CMD_LINE = $(CC) $(filter-out $(WERROR),$(WARN)) $(CFLAGS) $(CPPFLAGS) $(PATHS) $(CPPFLAGS_$*) $(LDFLAGS)
HEADERS = line.h util.h request.h log.h
$(C_PROGS): %: %.c $(HEADERS) $(wildcard VERSION) .%.cmd
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $(PATHS) $(CPPFLAGS_$@) $(LDFLAGS) -o $@ $<

.%.cmd: FORCE
	@printf '%s\n' '$(subst ','\'',$(CMD_LINE))' | cmp -s - $@ || \
		printf '%s\n' '$(subst ','\'',$(CMD_LINE))' >$@
FORCE:

# The paths of the install, compiled into every C program (util.h has the
# defaults of a bare compile): the run directory (fwload's lock directory,
# RUNDIR/lock), the programs' and the helpers' directories (hotplugd runs
# SBINDIR/hotplug unless told otherwise, -x), the configuration's.
PATHS = -DFWLOAD_RUNDIR='"$(RUNDIR)"' -DFWLOAD_SBINDIR='"$(SBINDIR)"' \
	-DFWLOAD_LIBEXECDIR='"$(LIBEXECDIR)"' -DFWLOAD_SYSCONFDIR='"$(SYSCONFDIR)"'

# Test builds: a dynamically linked fwload and fwload-extract, and a
# write()/sendfile()/read()/ioctl() fault injector to LD_PRELOAD into them.
test/fwload-dyn: fwload.c $(HEADERS)
	$(CC) $(WARN) $(PATHS) -O2 -g -o $@ fwload.c
test/fwload-extract-dyn: fwload-extract.c $(HEADERS)
	$(CC) $(WARN) $(PATHS) -O2 -g -o $@ fwload-extract.c
test/fault.so: test/fault.c
	$(CC) $(WARN) -O2 -fPIC -shared -o $@ test/fault.c -ldl

test/kernel/fwtrigger: test/kernel/fwtrigger.c
	$(CC) $(WARN) -O2 -static -o $@ test/kernel/fwtrigger.c

# The host's XSAVE size (CPUID 0xd), which the UML kernel must have taken.
test/kernel/xsave-size: test/kernel/xsave-size.c
	$(CC) $(WARN) -O2 -o $@ test/kernel/xsave-size.c

# The unprivileged lock holder of the lock tests (fast and kernel layers).
test/kernel/lockhold: test/kernel/lockhold.c
	$(CC) $(WARN) -O2 -static -o $@ test/kernel/lockhold.c

# hotplugd's tests: its socket filter run by the kernel on an AF_UNIX pair,
# and a sender of forged uevents.
test/hotplugd-filter: test/hotplugd-filter.c hotplugd.c $(HEADERS)
	$(CC) $(WARN) -O2 -o $@ test/hotplugd-filter.c

# fwload-verify's Ed25519 and SHA-512 against OpenSSL's (libssl-dev).
test/verify-diff: test/verify-diff.c fwload-verify.c $(HEADERS)
	$(CC) $(WARN) $(PATHS) -O2 -o $@ test/verify-diff.c -lcrypto

test/nlsend: test/nlsend.c
	$(CC) $(WARN) -O2 -static -o $@ test/nlsend.c

# fwloadctl's tests: a hotplugd of its own (fwloadctl checks /proc/PID/exe).
test/hotplugd-standin: test/hotplugd-standin.c
	$(CC) $(WARN) -O2 -o $@ test/hotplugd-standin.c

# fwloadctl upload's tests: a pseudo-terminal (its progress bar, Ctrl-C
# typed there); static, for the kernel layer's busybox root too.
test/ptyrun: test/ptyrun.c
	$(CC) $(WARN) -O2 -static -o $@ test/ptyrun.c

# The test targets first install what they need (test/deps.sh: apt-get,
# as root), then build, then run.
check:
	sh test/deps.sh all
	$(MAKE) WERROR=-Werror $(CHECK_BIN)
	SHELLS="$(SHELLS)" sh test/check

check-fast:
	sh test/deps.sh fast
	$(MAKE) WERROR=-Werror $(C_PROGS) test/fwload-dyn test/fwload-extract-dyn test/fault.so test/nlsend \
		test/hotplugd-filter test/kernel/lockhold test/hotplugd-standin test/ptyrun test/verify-diff
	SHELLS="$(SHELLS)" sh test/run-unit

# The unit cases against the C programs built with the sanitizers (test/asan).
check-asan:
	sh test/deps.sh fast
	sh test/deps.sh fuzz
	$(MAKE) WERROR=-Werror $(C_PROGS) test/fwload-dyn test/fwload-extract-dyn test/fault.so test/nlsend \
		test/hotplugd-filter test/kernel/lockhold test/hotplugd-standin test/ptyrun test/verify-diff
	sh test/asan

check-cross:
	sh test/deps.sh cross
	$(MAKE) WERROR=-Werror test/nlsend test/hotplugd-standin test/ptyrun
	sh test/cross.sh

check-package:
	sh test/deps.sh package
	$(MAKE) $(C_PROGS)
	sh test/package/run

check-kernel:
	sh test/deps.sh kernel
	$(MAKE) WERROR=-Werror $(C_PROGS) test/kernel/fwtrigger test/kernel/lockhold test/fwload-dyn \
		test/fault.so test/nlsend test/kernel/xsave-size test/ptyrun
	sh test/kernel/run

# Debian's own kernel (no uevent helper) under qemu, hotplugd as the source.
check-stock:
	sh test/deps.sh stock
	$(MAKE) WERROR=-Werror $(C_PROGS) test/kernel/fwtrigger test/nlsend
	sh test/stock/run

# Debian 12 booted with systemd under qemu (Debian's kernel, a minbase root
# built with mmdebstrap and cached), the Debian package installed with dpkg -i.
check-boot:
	sh test/deps.sh boot
	$(MAKE) WERROR=-Werror test/kernel/fwtrigger
	sh test/boot/run

# An arm64 board under qemu-system-aarch64: a kernel built for qemu's virt
# machine, fwload's own initramfs.cpio cross-built in a copy of the sources
# (test/arm64/run builds what it needs).
check-arm64:
	sh test/deps.sh arm64
	sh test/arm64/run

# On UML where it can run, else under qemu-system (test/kernel/demo.sh says
# why in one line; FWLOAD_DEMO=qemu forces it).
demo:
	sh test/deps.sh kernel
	$(MAKE) $(C_PROGS) test/kernel/fwtrigger
	sh test/kernel/demo.sh

# Figures, no verdicts (bench/run): system calls and programs per event,
# counted on the installed files (bench/count), the footprint, then timings
# of the installed chain against busybox mdev on the test kernel.
bench:
	sh test/deps.sh bench
	$(MAKE) $(C_PROGS) test/kernel/fwtrigger
	sh bench/run

# Bounded fuzzing: FUZZ_SECONDS of libFuzzer on fwload, FUZZ_COUNT generated
# environments for the agent (test/fuzz/run).
fuzz:
	sh test/deps.sh fuzz
	$(MAKE) fwload test/fuzz/fwload_args
	sh test/fuzz/run

test/fuzz/fwload_args: test/fuzz/fwload_args.c fwload.c $(HEADERS)
	clang -std=c11 -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined -o $@ test/fuzz/fwload_args.c

shellcheck:
	shellcheck -s sh hotplug firmware.agent fwloadctl fwload-lib.sh fwloadctl-upload.sh test/check test/lint test/deps.sh test/run-unit test/asan test/lib.sh \
		test/unit/*.sh test/unit/hotplugd-lib test/unit/extract-lib test/unit/upload-lib test/unit/verify-lib test/kernel/*.sh test/kernel/run test/kernel/guest-* \
		test/kernel/cases/*.sh test/kernel/cases/hotplugd-lib test/kernel/initramfs.sh test/kernel/initramfs-init \
		test/kernel/demo-init test/stock/run test/stock/init test/stock/udev-init test/stock/kernel.sh test/stock/lib.sh \
		test/boot/run test/boot/guest-lib test/boot/coldplug test/boot/trigger-pre test/boot/requests test/boot/wait-held \
		test/boot/probe test/boot/kprobe test/boot/prog-user test/boot/prog-slow test/boot/cases \
		test/arm64/run test/arm64/init test/arm64/build.sh test/arm64/lib.sh test/arm64/busybox.sh test/arm64/cases/*.sh \
		contrib/init/sysvinit/hotplugd contrib/init/sysvinit/fwload contrib/init/runit/hotplugd/run contrib/init/s6/hotplugd/run \
		test/fuzz/run test/fuzz/agent-env.sh test/cross.sh tools/*.sh bench/run bench/guest-bench bench/count \
		test/package/run test/package/*.sh contrib/buildroot/package/fwload/S09fwload \
		contrib/buildroot/package/fwload/S99fwload-settle contrib/init/sysvinit/fwload-settle \
		contrib/init/runit/core-services/*.sh \
		contrib/alpine/fwload.initd contrib/alpine/fwload-settle.initd contrib/openwrt/fwload/files/fwload.init \
		contrib/openwrt/fwload/files/fwload-settle.init contrib/openwrt/fwload/files/fwload.hotplug

# Paths in the scripts and man pages are the defaults of this Makefile;
# install rewrites them when SBINDIR, SYSCONFDIR, HOTPLUGDIR or LIBEXECDIR
# differ, and puts the version where a script says @VERSION@.
SUBST = sed -e 's|HOTPLUG_DIR:-/etc/hotplug.d}|HOTPLUG_DIR:-$(HOTPLUGDIR)}|' \
	    -e 's|FWLOAD_CONF:-/etc/fwload.conf}|FWLOAD_CONF:-$(SYSCONFDIR)/fwload.conf}|' \
	    -e 's|FWLOAD:-/sbin/fwload}|FWLOAD:-$(SBINDIR)/fwload}|' \
	    -e 's|FWLOAD_HOTPLUG:-/sbin/hotplug}|FWLOAD_HOTPLUG:-$(SBINDIR)/hotplug}|' \
	    -e 's|FWLOAD_RUNDIR:-/run/fwload}|FWLOAD_RUNDIR:-$(RUNDIR)}|' \
	    -e 's|:-/sbin/|:-$(SBINDIR)/|' -e 's|:-/lib/fwload|:-$(LIBEXECDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|g'
MANSUBST = sed -e 's|/lib/fwload/|$(LIBEXECDIR)/|g' \
	    -e 's|/sbin/fwload|$(SBINDIR)/fwload|g' \
	    -e 's|/sbin/hotplug|$(SBINDIR)/hotplug|g' \
	    -e 's|/etc/hotplug\.d|$(HOTPLUGDIR)|g' \
	    -e 's|/etc/fwload\.|$(SYSCONFDIR)/fwload.|g' \
	    -e 's|/etc/fwload/keys|$(SYSCONFDIR)/fwload/keys|g' \
	    -e 's|/run/fwload|$(RUNDIR)|g'

# $(call install_progs,LIST,DIR) and $(call install_scripts,LIST,DIR):
# install each program of LIST into DIR (made first); nothing if LIST is empty.
# $(call install_scripts,LIST,DIR,644): shell code that is sourced.
install_progs = $(if $(1),$(INSTALL) -d -m 755 $(DESTDIR)$(2) && \
	$(foreach p,$(1),$(INSTALL) -m 755 $(p) $(DESTDIR)$(2)/$(p) &&) :)
install_scripts = $(if $(1),$(INSTALL) -d -m 755 $(DESTDIR)$(2) && \
	$(foreach p,$(1),$(SUBST) $(p) >$(DESTDIR)$(2)/$(p) && chmod $(or $(3),755) $(DESTDIR)$(2)/$(p) &&) :)
# Where the C programs end up (for strip).
INSTALLED_C = $(addprefix $(SBINDIR)/,$(SBIN_PROGS)) $(addprefix $(LIBEXECDIR)/,$(LIBEXEC_PROGS)) \
	$(addprefix $(BINDIR)/,$(BIN_PROGS))

# install = what runs (install-progs: programs, hook, config) + man pages +
# documentation. Every directory is made as needed, whatever the variables;
# no empty hotplug.d/default/ (every uevent would pay to look into it;
# fwloadctl setup makes it when it keeps an older helper there).
install: install-progs install-man install-doc

install-progs: $(PROGS)
	$(call install_progs,$(SBIN_PROGS),$(SBINDIR))
	$(call install_progs,$(LIBEXEC_PROGS),$(LIBEXECDIR))
	$(call install_progs,$(BIN_PROGS),$(BINDIR))
	$(call install_scripts,$(SBIN_SCRIPTS),$(SBINDIR))
	$(call install_scripts,$(LIBEXEC_SCRIPTS),$(LIBEXECDIR))
	$(call install_scripts,$(LIBEXEC_LIBS),$(LIBEXECDIR),644)
	$(call install_scripts,$(BIN_SCRIPTS),$(BINDIR))
	$(INSTALL) -d -m 755 $(DESTDIR)$(SYSCONFDIR) $(DESTDIR)$(HOTPLUGDIR)/firmware
	ln -sf $(LIBEXECDIR)/firmware.agent $(DESTDIR)$(HOTPLUGDIR)/firmware/50-firmware.hotplug
	[ -e $(DESTDIR)$(SYSCONFDIR)/fwload.conf ] || \
		$(INSTALL) -m 644 etc/fwload.conf $(DESTDIR)$(SYSCONFDIR)/fwload.conf

install-man:
	$(INSTALL) -d -m 755 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5
	for m in $(MAN8) $(MAN5); do \
		s=$${m##*.}; $(MANSUBST) $$m >$(DESTDIR)$(MANDIR)/man$$s/$${m##*/} && \
		chmod 644 $(DESTDIR)$(MANDIR)/man$$s/$${m##*/} || exit; \
	done

install-doc:
	$(INSTALL) -d -m 755 $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(if $(wildcard doc/*.md),$(INSTALL) -d -m 755 $(DESTDIR)$(DOCDIR)/doc && \
		$(INSTALL) -m 644 $(wildcard doc/*.md) $(DESTDIR)$(DOCDIR)/doc/)

# The systemd units (not part of install: a system without systemd has no
# use for them), their paths those of the install: fwload.service (setup,
# hotplugd) and fwload-settle.service (settle, once the file systems are
# mounted).
install-systemd:
	@[ -n "$(UNITS)" ] || { echo "make install-systemd: the units run fwloadctl, and WITH_FWLOADCTL=no" >&2; exit 1; }
	$(INSTALL) -d -m 755 $(DESTDIR)$(SYSTEMDUNITDIR)
	for u in $(UNITS); do \
		$(MANSUBST) contrib/init/systemd/$$u >$(DESTDIR)$(SYSTEMDUNITDIR)/$$u && \
		chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u || exit; \
	done

# The same, the C programs stripped by the target's strip.
install-strip: install
	$(STRIP) $(addprefix $(DESTDIR),$(INSTALLED_C))

# On the running system (no DESTDIR), not while "fwloadctl setup" is in
# force (the kernel's uevent helper would name a deleted hotplug, and a
# helper it kept for the other subsystems would no longer run): it says to
# run "fwloadctl setup --undo" first (FORCE=1 removes the files anyway).
# Every part's files, whatever the WITH_ switches say now.
uninstall: override WITH_HOTPLUGD = yes
uninstall: override WITH_FWLOADCTL = yes
uninstall: override WITH_UPLOAD = yes
uninstall: override WITH_EXTRACT = yes
uninstall: override WITH_RUN = yes
uninstall: override WITH_MANIFEST = yes
uninstall: override WITH_VERIFY = yes
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ "$(FORCE)" != 1 ] && { [ -e "$(RUNDIR)/setup.state" ] || \
		[ "$$(cat /proc/sys/kernel/hotplug 2>/dev/null)" -ef "$(SBINDIR)/hotplug" ]; }; then \
		echo "make uninstall: fwloadctl setup is in force here: run 'fwloadctl setup --undo' first" >&2; \
		echo "(it gives the kernel its previous uevent helper back and stops the hotplugd it started;" >&2; \
		echo "make uninstall FORCE=1 removes the files anyway)" >&2; \
		exit 1; \
	fi
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_C)) \
		$(addprefix $(DESTDIR)$(SBINDIR)/,$(SBIN_SCRIPTS)) \
		$(addprefix $(DESTDIR)$(LIBEXECDIR)/,$(LIBEXEC_SCRIPTS) $(LIBEXEC_LIBS)) \
		$(addprefix $(DESTDIR)$(BINDIR)/,$(BIN_SCRIPTS)) \
		$(DESTDIR)$(HOTPLUGDIR)/firmware/50-firmware.hotplug \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MAN8))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/doc/,$(notdir $(wildcard doc/*.md))) \
		$(addprefix $(DESTDIR)$(SYSTEMDUNITDIR)/,$(UNITS))
	-rmdir $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(HOTPLUGDIR)/firmware \
		$(DESTDIR)$(HOTPLUGDIR)/default $(DESTDIR)$(HOTPLUGDIR) \
		$(DESTDIR)$(DOCDIR)/doc $(DESTDIR)$(DOCDIR) 2>/dev/null
	@echo "kept $(DESTDIR)$(SYSCONFDIR)/fwload.conf (your configuration)"

# Early user space: what runs (install-progs, the C programs stripped) in
# initramfs/, listed in the kernel's gen_init_cpio format (for
# CONFIG_INITRAMFS_SOURCE, or usr/gen_init_cpio) and as a newc archive to
# append to an initramfs (cat base.cpio initramfs.cpio > initrd). The list
# names the files in initramfs/ by absolute path: keep the two together
# (make clean removes both).
INITRAMFS = $(CURDIR)/initramfs

initramfs: $(PROGS)
	rm -rf $(INITRAMFS)
	$(MAKE) -s install-progs DESTDIR=$(INITRAMFS)
	$(STRIP) $(addprefix $(INITRAMFS),$(INSTALLED_C))

initramfs.list: initramfs
	sh tools/cpio-list.sh $(INITRAMFS) >$@

initramfs.cpio: initramfs
	cd $(INITRAMFS) && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet >$(CURDIR)/$@

# The release tarball: the files git tracks, as they are in the work tree
# (git stash create: uncommitted changes to them included; nothing else).
# The index is refreshed first: in a copied checkout every file looks
# changed to git until then, and git stash create fails.
DIST = fwload-$(VERSION)
DIST_TARBALL = $(DIST).tar.gz

dist:
	@[ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ] || \
		{ echo "make dist: needs a git checkout (it ships what git tracks)" >&2; exit 1; }
	git update-index -q --refresh >/dev/null 2>&1; \
	tree=$$(git stash create) && \
		git archive --format=tar.gz --prefix=$(DIST)/ -o $(DIST_TARBALL) $${tree:-HEAD}
	@echo "$(DIST_TARBALL): $$(gzip -dc $(DIST_TARBALL) | tar -tf - | grep -vc '/$$') files"

# make -s print-VAR: a variable's value (for the tests and for packagers:
# make -s print-SBIN_PROGS, print-MAN8, ...).
print-%:
	@echo '$($*)'

clean:
	rm -f $(CHECK_BIN) $(FUZZ_BIN) $(C_PROGS:%=.%.cmd) initramfs.list initramfs.cpio $(DIST).tar.gz
	rm -rf $(INITRAMFS)
