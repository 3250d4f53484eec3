# SPDX-License-Identifier: MIT
# Where sendfile() or splice() is not supported (EINVAL on the first call),
# fwload falls back to read/write and still loads the image whole.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

for size in 1 4097 1048677; do
	mkimage "$T/img" "$size"

	request x.bin
	fault_run FAULT_NO_SENDFILE=1 -- -s "$SYS" "$E_DEVPATH" "$T/img"
	status_is 0
	stderr_is ''
	file_is "$REQ/loading" 10 "loading ($size bytes, no sendfile)"
	data_is "$T/img"
	stat_is sendfile 1
	stat_ge write 1

	request x.bin
	head -c 2000000 "$T/img" | fault_run FAULT_NO_SPLICE=1 -- -s "$SYS" "$E_DEVPATH" -
	st=$?
	status_is 0
	file_is "$REQ/loading" 10 "loading ($size bytes, no splice)"
	data_is "$T/img"
	stat_is splice 1
	stat_ge write 1

	# The control: without the fault, sendfile does it all, no write().
	request x.bin
	fault_run -- -s "$SYS" "$E_DEVPATH" "$T/img"
	status_is 0
	data_is "$T/img"
	stat_is sendfile 1
	stat_is write 0
done
