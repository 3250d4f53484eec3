# SPDX-License-Identifier: MIT
# An image dated after January 2038 loads. On 32-bit targets (armhf under
# qemu-user: test/cross.sh), a build without _TIME_BITS=64 and
# _FILE_OFFSET_BITS=64 gets EOVERFLOW from stat() for such a file and
# refuses it. The same with the mtime far in the future and a size that
# needs more than 31 bits of offset is not tried here (disk space).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 5000
for d in 203801190314.08 204001010000 210601010000; do
	touch -t "$d" "$T/img" || fail "cannot date the image $d"
	request x.bin
	run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" "$T/img"
	status_is 0
	file_is "$REQ/loading" 10 "loading (image dated $d)"
	data_is "$T/img"
done
