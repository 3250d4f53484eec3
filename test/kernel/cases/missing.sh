# SPDX-License-Identifier: MIT
# A name found nowhere is cancelled at once: the driver sees ENOENT (2), not
# the timeout's ETIMEDOUT (110), and the log says where we looked.
. ../lib.sh
request_fails fwload-test-missing.bin 2
kmsg "fwload: cancelled fwload-test-missing.bin for /devices/virtual/misc/test_firmware/fwload-test-missing.bin; not found in /lib/firmware/updates/$REL:/lib/firmware/updates:/lib/firmware/$REL:/lib/firmware:$FW"
