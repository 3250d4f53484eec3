# SPDX-License-Identifier: MIT
# A zero-length file cannot be delivered (the kernel would hand the driver
# ENOMEM): like the kernel's own loader, the agent skips it, finds nothing
# else, and cancels: the driver sees ENOENT at once.
. ../lib.sh
: >"$FW/fwload-test-empty.bin"
request_fails fwload-test-empty.bin 2
kmsg "fwload: cancelled fwload-test-empty.bin for /devices/virtual/misc/test_firmware/fwload-test-empty.bin; not found in .*; skipped /run/fw/fwload-test-empty.bin \\(empty file\\)"
