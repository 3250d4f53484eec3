# SPDX-License-Identifier: MIT
# Images of 1, 4095, 4096, 4097 bytes, 1 MiB and 16 MiB through the event
# source -> firmware.agent -> fwload, each read back whole from
# /dev/test_firmware and compared byte for byte with its file; each with
# fwload's line in the kernel log.
. ../lib.sh
for size in 1 4095 4096 4097 1048576 16777216; do
	mkimage "size-$size.bin" "$size"
	request "size-$size.bin"
	kmsg "fwload: loaded size-$size\\.bin \\($size bytes, [0-9]+ ms\\) from $FW/size-$size\\.bin for /devices/virtual/misc/test_firmware/size-$size\\.bin"
	rm -f "$FW/size-$size.bin"
done
