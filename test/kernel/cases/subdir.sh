# SPDX-License-Identifier: MIT
# A name with a subdirectory: FIRMWARE keeps the '/', DEVPATH has '!'.
. ../lib.sh
mkimage fwload-test-vendor/sub/chip.bin 5000
request fwload-test-vendor/sub/chip.bin
kmsg 'fwload: loaded fwload-test-vendor/sub/chip.bin \(5000 bytes, [0-9]+ ms\) from /run/fw/fwload-test-vendor/sub/chip.bin for /devices/virtual/misc/test_firmware/fwload-test-vendor!sub!chip.bin'
