# SPDX-License-Identifier: MIT
# fwload -c DEVPATH answers "-1" (the driver gets ENOENT) and exits 1.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

request x.bin
run clean "$FWLOAD" -c -s "$SYS" "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stdout_is ''

# No request there: nothing to cancel, a system error.
run clean "$FWLOAD" -c -s "$SYS" -t 0 "$TF/nothing.bin"
status_is 111
grep -q "no request: cannot open $SYS$TF/nothing.bin/loading: No such file or directory" "$T/stderr" ||
	fail "want a 'no request' message: $(cat "$T/stderr")"
