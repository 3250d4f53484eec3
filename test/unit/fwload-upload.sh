# SPDX-License-Identifier: MIT
# A firmware-upload device (CONFIG_FW_UPLOAD) has loading and data too, and
# its add uevent looks like a request's; writing to it starts a flash. Its
# directory has remaining_size: fwload leaves it alone, exit 6, nothing
# written, not even a cancel.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 1000
request upload.bin /devices/virtual/firmware/upload.bin
for f in remaining_size status error cancel; do
	printf 'x\n' >"$REQ/$f"
done
for args in "$E_DEVPATH $T/img" "-c $E_DEVPATH"; do
	# shellcheck disable=SC2086 # ARG...
	run clean "$FWLOAD" -s "$SYS" -l "$LOGF" $args
	status_is 6
	untouched
	stderr_is "fwload: upload.bin: $E_DEVPATH is a firmware-upload device, not a request; left alone"
	no_file "$LOGF" "a log line for a device that is not a request"
done
