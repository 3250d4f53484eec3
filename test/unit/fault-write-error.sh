# SPDX-License-Identifier: MIT
# A write error on data (EIO) aborts the load after the start: "1-1",
# exit 2, one line on stderr and the same in the log. The request vanishing
# under fwload (ENODEV: it timed out, udev's 50-firmware.rules cancelled
# it, the kernel said so) is exit 111, one line on stderr and the same in
# the log (before, stderr only: a cancelled request left no trace in the
# kernel log). data holds exactly what went through before the error, on
# every copy path.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/big" 1048677

# aborts HOW AT MESSAGE FAULT...: the load is aborted with MESSAGE after
# AT bytes went to data.
aborts() {
	how=$1
	at=$2
	msg=$3
	shift 3
	request x.bin
	rm -f "$LOGF"
	case $how in
	file) fault_run "$@" -- -s "$SYS" -l "$LOGF" "$E_DEVPATH" "$T/big" ;;
	stdin) fault_run "$@" -- -s "$SYS" -l "$LOGF" "$E_DEVPATH" - <"$T/big" ;;
	pipe)
		head -c 2000000 "$T/big" | fault_run "$@" -- -s "$SYS" -l "$LOGF" "$E_DEVPATH" -
		st=$?
		;;
	esac
	file_is "$REQ/loading" 1-1 "loading ($how, $*)"
	stderr_is "fwload: x.bin: $msg"
	case $msg in
	*gone) status_is 111 ;;
	*) status_is 2 ;;
	esac
	diff "$T/stderr" "$LOGF" || fail "stderr and the log differ ($how, $*)"
	head -c "$at" "$T/big" >"$T/part"
	data_is "$T/part"
}

eio="cannot write $SYS$TF/x.bin/data: errno 5 (EIO); request aborted"
gone="cannot write $SYS$TF/x.bin/data: errno 19 (ENODEV); the request is gone"
for how in file stdin pipe; do
	aborts "$how" 100000 "$eio" FAULT_EIO_AT=100000
	aborts "$how" 10000 "$eio" FAULT_EIO_AT=10000 FAULT_SHORT=4096
	aborts "$how" 0 "$eio" FAULT_EIO_AT=0
	aborts "$how" 5000 "$gone" FAULT_ENODEV_AT=5000
	aborts "$how" 0 "$gone" FAULT_ENODEV_AT=0 FAULT_EINTR=2
done
aborts file 100000 "$eio" FAULT_NO_SENDFILE=1 FAULT_EIO_AT=100000
aborts file 4097 "$gone" FAULT_NO_SENDFILE=1 FAULT_ENODEV_AT=4097 FAULT_SHORT=4096
aborts pipe 100000 "$eio" FAULT_NO_SPLICE=1 FAULT_EIO_AT=100000
aborts pipe 1048676 "$gone" FAULT_NO_SPLICE=1 FAULT_ENODEV_AT=1048676
aborts file 1048676 "$eio" FAULT_EIO_AT=1048676  # the very last byte
