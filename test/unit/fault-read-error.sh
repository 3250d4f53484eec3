# SPDX-License-Identifier: MIT
# A read error on the image aborts the load after the start: "1-1", exit 2,
# one message naming the image. data holds what was read before the error.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/big" 1048677

# aborts HOW AT FAULT...
aborts() {
	how=$1
	at=$2
	shift 2
	request x.bin
	case $how in
	file)
		fault_run FAULT_IMAGE="$T/big" "$@" -- -s "$SYS" "$E_DEVPATH" "$T/big"
		msg="cannot read $(ere "$T/big")"
		;;
	pipe)
		head -c 2000000 "$T/big" |
			fault_run FAULT_IMAGE=- FAULT_NO_SPLICE=1 "$@" -- -s "$SYS" "$E_DEVPATH" -
		st=$?
		msg="cannot read (-|standard input)"
		;;
	esac
	status_is 2
	file_is "$REQ/loading" 1-1 "loading ($how, $*)"
	stderr_matches "fwload: x\\.bin: $msg: errno 5 \\(EIO\\); request aborted"
	head -c "$at" "$T/big" >"$T/part"
	data_is "$T/part"
}

aborts file 50000 FAULT_READ_EIO_AT=50000
aborts file 0 FAULT_READ_EIO_AT=0
aborts file 50000 FAULT_READ_EIO_AT=50000 FAULT_NO_SENDFILE=1
aborts file 0 FAULT_READ_EIO_AT=0 FAULT_NO_SENDFILE=1
aborts file 1048676 FAULT_READ_EIO_AT=1048676 FAULT_NO_SENDFILE=1
aborts pipe 50000 FAULT_READ_EIO_AT=50000
aborts pipe 0 FAULT_READ_EIO_AT=0
