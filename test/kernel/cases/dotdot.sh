# SPDX-License-Identifier: MIT
# A name with a '..' component is never served.
# 1. The kernel itself rejects such names (EINVAL) before any helper runs.
# 2. A forged event naming '../x' for a real pending request (a custom
#    fallback request, which sends no uevent of its own) is refused and the
#    request cancelled, although the file it points to exists.
. ../lib.sh
mkimage fwload-test-escape.bin 100 /run
request_fails ../fwload-test-escape.bin 22

custom_request fwload-test-custom.bin
env -i ACTION=add SUBSYSTEM=firmware DEVPATH="$dev" FIRMWARE=../fwload-test-escape.bin \
	TIMEOUT=60 ASYNC=1 HOME=/ PATH=/sbin:/bin:/usr/sbin:/usr/bin /sbin/hotplug firmware
custom_result
[ "$err" = 19 ] || fail "custom fallback request ended with errno $err, want ENODEV (19, test_firmware's code for a failed custom request)"
kmsg "fwload: cancelled \.\./fwload-test-escape\.bin for $dev; bad FIRMWARE name \('..' component\)"
echo "ok: forged '..' event refused, request cancelled"
