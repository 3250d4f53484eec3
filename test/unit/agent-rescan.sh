# SPDX-License-Identifier: MIT
# firmware.agent --rescan serves every request pending in SYSFS/class/firmware
# (each a link to its request directory, the name in its uevent file), as if
# its uevent came now: a present image is loaded, a missing one cancelled;
# one line per request on stdout, exit status the worst of them.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
mkimage "$T/fw/sub/here.bin" 5000
pending sub/here.bin
here=$REQ
pending gone.bin
gone=$REQ
: >"$SYS/class/firmware/timeout"  # the class's own attribute, not a request

unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
run agent --rescan
status_is 1
file_is "$here/loading" 10
REQ=$here
data_is "$T/fw/sub/here.bin"
file_is "$gone/loading" -1
grep -qx 'sub/here.bin: 0' "$T/stdout" || fail "no line for sub/here.bin: $(cat "$T/stdout")"
grep -qx 'gone.bin: 1' "$T/stdout" || fail "no line for gone.bin: $(cat "$T/stdout")"
grep -q "^fwload: loaded sub/here.bin (5000 bytes, [0-9]* ms) from $T/fw/sub/here.bin for $TF/sub!here.bin\$" "$LOGF" ||
	fail "no load line: $(cat "$LOGF")"
