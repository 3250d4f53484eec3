# SPDX-License-Identifier: MIT
# TIMEOUT is whatever /sys/class/firmware/timeout holds: 0 (wait for ever),
# any non-negative int. Whatever its value, an existing request is served.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"
for timeout in 60 1 0 86400 86401 100000 2147483647 99999999999999999999 '' x -1 007; do
	request x.bin
	E_TIMEOUT=$timeout
	run agent firmware
	status_is 0
	file_is "$REQ/loading" 10 "loading with TIMEOUT='$timeout'"
	file_is "$REQ/data" firmware "data with TIMEOUT='$timeout'"
done
request x.bin
unset E_TIMEOUT
run agent firmware
status_is 0
file_is "$REQ/loading" 10 "loading without TIMEOUT"
