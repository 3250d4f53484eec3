#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh - load one firmware through the whole chain on a real kernel:
#   driver -> request_firmware() -> uevent -> /sbin/hotplug (or hotplugd)
#   -> firmware.agent -> fwload -> /sys/.../loading + data -> driver
# and show what the driver received and what the kernel logged.
#
# On User-Mode Linux (the test kernel, test/kernel/build.sh) where it can
# run; where it cannot (not an x86_64 host, no ptrace in a container, no
# directory that allows executable mappings), it says why in one line and
# runs the same demo under qemu-system (demo-qemu.sh).
#
# Environment: FWLOAD_DEMO=uml    UML only (fails where it cannot run)
#              FWLOAD_DEMO=qemu   qemu-system, whatever the host
#              FWLOAD_DEMO_ARCH   the qemu machine: amd64 or arm64
#                                 (default: the host's)
#              FWLOAD_KERNEL      a UML kernel to use instead of building one
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
mode=${FWLOAD_DEMO:-auto}
case $mode in
auto | uml | qemu) ;;
*) echo "demo: FWLOAD_DEMO=$mode: want uml or qemu (or nothing)"; exit 100 ;;
esac

if [ "$mode" != qemu ]; then
	why=''
	case $(uname -m) in
	x86_64)
		kernel=${FWLOAD_KERNEL:-}
		[ -n "$kernel" ] || echo "demo: building (or reusing) the UML test kernel; the first build takes about 4 minutes"
		if [ -z "$kernel" ] && ! kernel=$(sh "$repo/test/kernel/build.sh"); then
			why="the UML kernel could not be built"
		elif ! line=$(FWLOAD_KERNEL=$kernel sh "$repo/test/kernel/boot.sh" --check); then
			why=${line#UML does not start here: }
		fi
		;;
	*) why="User-Mode Linux runs on x86_64 hosts, this one is $(uname -m)" ;;
	esac
	if [ -z "$why" ]; then
		echo "demo: machine User-Mode Linux on this host ($line)"
		echo "demo: kernel $kernel"
		echo "demo: booting; the guest installs fwload with 'make install-progs DESTDIR=' and runs 'fwloadctl setup'"
		FWLOAD_KERNEL=$kernel sh "$repo/test/kernel/boot.sh" test/kernel/guest-demo
		status=$?
		case $status in
		0) ;;
		1) ;;  # the demo's own FAIL lines say what
		*) echo "demo: the UML guest did not finish (status $status): its console is above" ;;
		esac
		exit "$status"
	fi
	if [ "$mode" = uml ]; then
		echo "demo: UML cannot run here: $why"
		exit 1
	fi
	echo "demo: UML cannot run here ($why): the same demo under qemu-system instead"
fi
exec sh "$repo/test/kernel/demo-qemu.sh" ${FWLOAD_DEMO_ARCH:+"$FWLOAD_DEMO_ARCH"}
