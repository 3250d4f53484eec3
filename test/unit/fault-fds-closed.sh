# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# With fds 0-2 closed at start (as the kernel runs helpers), fwload's
# messages must not land in data: after a write error, data holds exactly
# the bytes before it; after a -v success, exactly the image.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 100000

request x.bin
clean $PRELOAD FAULT_EIO_AT=10000 $DYN -v -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/img" 0<&- 1>&- 2>&-
st=$?
status_is 2
file_is "$REQ/loading" 1-1
head -c 10000 "$T/img" >"$T/part"
data_is "$T/part"
log_has "fwload: x.bin: cannot write $REQ/data: errno 5 (EIO); request aborted"

request x.bin
clean $PRELOAD FAULT_SHORT=4096 $DYN -v -s "$SYS" "$E_DEVPATH" "$T/img" 0<&- 1>&- 2>&-
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"

request x.bin
clean $PRELOAD FAULT_READ_EIO_AT=0 FAULT_IMAGE="$T/img" $DYN -v -s "$SYS" "$E_DEVPATH" "$T/img" 0<&- 1>&- 2>&-
st=$?
status_is 2
file_is "$REQ/loading" 1-1
file_is "$REQ/data" ""
