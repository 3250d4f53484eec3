# SPDX-License-Identifier: MIT
# Images of 1, 4095, 4096, 4097 bytes, 1 MiB and 64 MiB, each through
# /sbin/hotplug -> firmware.agent -> fwload, compared byte for byte with what
# the driver received.
. ../lib.sh
for size in 1 4095 4096 4097 1048576 67108864; do
	mkimage "fwload-test-size-$size.bin" "$size"
	request "fwload-test-size-$size.bin"
	kmsg "fwload: loaded fwload-test-size-$size.bin \($size bytes, [0-9]+ ms\) from $FW/fwload-test-size-$size.bin"
	rm -f "$FW/fwload-test-size-$size.bin"
done
