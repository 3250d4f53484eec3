# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# runit stage 1 (Void: /etc/runit/core-services/01-fwload.sh, sourced by
# /etc/runit/1 in name order): "fwloadctl setup" before the coldplug,
# 02-kmods.sh (modules-load.d) and 02-udev.sh (udevadm trigger), which
# load the drivers that ask for firmware (with the kernel's default
# force_sysfs_fallback=0 a request made before setup fails at once); after
# 00-pseudofs.sh (/proc, /sys, /run). Stage 1 comes before any
# supervision: with SOURCE=hotplugd, the hotplugd setup starts here runs
# unsupervised until shutdown (the hotplugd service directory is for a
# system that sets up in stage 2, where drivers loaded in stage 1 are not
# covered). Sourced: no exit.
if command -v fwloadctl >/dev/null; then
	msg "Setting up fwload (firmware requests)..."
	fwloadctl setup >/dev/null || msg_warn "fwloadctl setup failed (the kernel log says why)"
fi
