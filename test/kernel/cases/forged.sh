# SPDX-License-Identifier: MIT
# Events that did not come from the kernel, run through /sbin/hotplug like
# the kernel would, against a real pending request (a custom fallback
# request: no uevent of its own, no timeout). None may serve or break it;
# each leaves a log line where it refuses something.
. ../lib.sh
mkimage fwload-test-forged.bin 4000
custom_request fwload-test-forged.bin
kenv() {
	env -i HOME=/ PATH=/sbin:/bin:/usr/sbin:/usr/bin "$@" /sbin/hotplug firmware
}
env -i /sbin/hotplug firmware
[ $? = 4 ] || fail "hotplug with no environment: want the agent's refusal (4, no ACTION)"
env -i /sbin/hotplug
[ $? = 2 ] || fail "hotplug with no subsystem at all did not refuse (exit 2)"
kenv SUBSYSTEM=firmware DEVPATH="$dev" FIRMWARE=fwload-test-forged.bin
kenv ACTION=bogus SUBSYSTEM=firmware DEVPATH="$dev" FIRMWARE=fwload-test-forged.bin
kenv ACTION=remove SUBSYSTEM=firmware DEVPATH="$dev" FIRMWARE=fwload-test-forged.bin
kenv ACTION=add SUBSYSTEM=firmware DEVPATH=devices/relative FIRMWARE=fwload-test-forged.bin
kmsg "fwload: bad DEVPATH 'devices/relative' \(not absolute\); event refused"
kenv ACTION=add SUBSYSTEM=firmware DEVPATH=/devices/virtual/misc/test_firmware FIRMWARE=fwload-test-forged.bin
kmsg "fwload: no firmware request at /sys/devices/virtual/misc/test_firmware \(loading missing\); event ignored"
kenv ACTION=add SUBSYSTEM=firmware DEVPATH=/devices/../devices/virtual/misc/test_firmware/fwload-test-forged.bin FIRMWARE=fwload-test-forged.bin
kmsg "fwload: bad DEVPATH '/devices/../devices/virtual/misc/test_firmware/fwload-test-forged.bin' \('..' component\); event refused"
[ -e "/sys$dev/loading" ] || fail "a forged event ended the request"
read -r state <"/sys$dev/loading"
[ "$state" = 0 ] || fail "a forged event started a load (loading reads $state)"
echo "ok: forged events left the request alone"
# A proper event for it is served.
kenv ACTION=add SUBSYSTEM=firmware DEVPATH="$dev" FIRMWARE=fwload-test-forged.bin TIMEOUT=60 ASYNC=1
custom_result
[ "$err" = 0 ] || fail "the proper event did not serve the request (errno $err)"
cmp "$FW/fwload-test-forged.bin" /dev/test_firmware || fail "wrong image"
echo "ok: then a proper event served it"
