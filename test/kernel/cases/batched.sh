# SPDX-License-Identifier: MIT
# 32 concurrent request_firmware_nowait() calls for one name (test_firmware's
# batched async trigger), all served: the kernel folds them into one uevent,
# and every one of the 32 requests must hold the full image.
. ../lib.sh
mkimage fwload-test-batch.bin 3000
printf 32 >"$TF/config_num_requests"
printf fwload-test-batch.bin >"$TF/config_name"
trigger trigger_batched_requests_async 1
[ "$err" = 0 ] || fail "batched trigger failed with errno $err"
read -r result <"$TF/test_result"
[ "$result" = 0 ] || fail "test_result $result"
i=0
while [ $i -lt 32 ]; do
	printf %s $i >"$TF/config_read_fw_idx"
	cmp "$FW/fwload-test-batch.bin" "$TF/read_firmware" || fail "request $i got a different image"
	i=$((i + 1))
done
echo "ok: 32 concurrent requests served in $ms ms"
printf 1 >"$TF/release_all_firmware"
