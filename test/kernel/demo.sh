#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh - load one firmware through the whole chain on the test kernel:
#   driver -> request_firmware() -> uevent -> /sbin/hotplug -> hotplug.d
#   -> firmware.agent -> fwload -> /sys/.../loading + data -> driver
# and show what the driver received and what the kernel logged.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
echo "demo: building (or reusing) the UML test kernel; the first build takes a few minutes"
kernel=$(sh "$repo/test/kernel/build.sh")
echo "demo: kernel $kernel"
echo "demo: booting; the guest installs fwload with 'make install DESTDIR=' and points"
echo "demo: /proc/sys/kernel/hotplug at /sbin/hotplug"
FWLOAD_KERNEL=$kernel exec sh "$repo/test/kernel/boot.sh" test/kernel/guest-demo
