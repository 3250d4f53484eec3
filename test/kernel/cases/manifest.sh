# SPDX-License-Identifier: MIT
# MANIFEST= with UNLISTED=refuse: listed images load when their SHA-256
# (of what the driver gets, after decompression) matches; a mismatch and an
# unlisted image are refused (ENOENT, 2), each with its line in the log.
. ../lib.sh
mkimage fwload-test-sum.bin 300001
mkimage fwload-test-sum-bad.bin 4096
mkimage fwload-test-unlisted.bin 100
cp /fixtures/image.xz "$FW/fwload-test-sum-xz.bin.xz"
(cd "$FW" && sha256sum fwload-test-sum.bin) >/run/SHA256SUMS || fail sha256sum
sum=$(sha256sum </fixtures/image)
echo "${sum%% *}  fwload-test-sum-xz.bin" >>/run/SHA256SUMS
echo "${sum%% *}  fwload-test-sum-bad.bin" >>/run/SHA256SUMS
conf FIRMWARE_PATH=/run/fw LOG=kmsg MANIFEST=/run/SHA256SUMS UNLISTED=refuse COMPRESSED=yes

request fwload-test-sum.bin
kmsg "fwload: loaded fwload-test-sum.bin \(300001 bytes, [0-9]+ ms\) from $FW/fwload-test-sum.bin via /lib/fwload/fwload-sha256 for "
trigger trigger_request fwload-test-sum-xz.bin
[ "$err" = 0 ] || fail "sum-xz: errno $err"
cmp /fixtures/image /dev/test_firmware || fail "sum-xz: the driver got a different image"
kmsg "fwload: loaded fwload-test-sum-xz.bin \(1000003 bytes, [0-9]+ ms\) from $FW/fwload-test-sum-xz.bin.xz via /lib/fwload/fwload-sha256 for "
request_fails fwload-test-sum-bad.bin 2
kmsg "fwload: fwload-test-sum-bad.bin: /lib/fwload/fwload-sha256 failed \(exit status 1\) on $FW/fwload-test-sum-bad.bin: fwload-sha256: SHA-256 mismatch: got [0-9a-f]{64}, want ${sum%% *}; request aborted"
request_fails fwload-test-unlisted.bin 2
kmsg "fwload: cancelled fwload-test-unlisted.bin for /devices/virtual/misc/test_firmware/fwload-test-unlisted.bin; not in /run/SHA256SUMS, UNLISTED=refuse"
