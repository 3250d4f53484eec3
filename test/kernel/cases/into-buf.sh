# SPDX-License-Identifier: MIT
# A driver with a fixed buffer (request_firmware_into_buf): an image that
# fits is delivered; one larger than the buffer makes the kernel refuse the
# write (ENOMEM) and fwload aborts the request: the driver gets an error,
# never a cut image.
# test_firmware always allocates a 1 KiB buffer (TEST_FIRMWARE_BUF_SIZE) and
# passes config_buf_size as its size: a config_buf_size above 1024 lets the
# kernel write past the buffer (guest panics seen), so 1024 it is.
. ../lib.sh
printf 1 >"$TF/config_into_buf"
printf 1024 >"$TF/config_buf_size"
printf 1 >"$TF/config_num_requests"

mkimage fwload-test-intobuf-fits.bin 1000
printf fwload-test-intobuf-fits.bin >"$TF/config_name"
trigger trigger_batched_requests 1
read -r result <"$TF/test_result"
if [ "$err" != 0 ] || [ "$result" != 0 ]; then
	fail "fitting image: errno $err, test_result $result"
fi
printf 0 >"$TF/config_read_fw_idx"
cmp "$FW/fwload-test-intobuf-fits.bin" "$TF/read_firmware" || fail "fitting image differs"
printf 1 >"$TF/release_all_firmware"
echo "ok: 1000 bytes into a 1024-byte buffer"

mkimage fwload-test-intobuf-big.bin 4096
printf fwload-test-intobuf-big.bin >"$TF/config_name"
trigger trigger_batched_requests 1
read -r result <"$TF/test_result"
printf 1 >"$TF/release_all_firmware"
[ "$result" != 0 ] || fail "a 4096-byte image in a 1024-byte buffer was accepted"
kmsg 'fwload: fwload-test-intobuf-big.bin: cannot write /sys/devices/virtual/misc/test_firmware/fwload-test-intobuf-big.bin/data: errno 12 \(ENOMEM\); request aborted'
echo "ok: 4096 bytes into 1024: refused (test_result $result)"
