# SPDX-License-Identifier: MIT
# An image that shrinks, grows or is rewritten while fwload copies it must
# not be committed: "1-1", exit 2, a message saying the file shrank or
# changed. The injector changes the image when B bytes went to data.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

size=1048677
mkimage "$T/master" "$size"

# aborts WORD FAULT...: a fresh copy of the image, loaded under FAULT...,
# is refused with "file WORD while being copied".
aborts() {
	word=$1
	shift
	cp "$T/master" "$T/img"
	touch -t 200001010000 "$T/img"  # an old mtime: any rewrite changes it
	request x.bin
	fault_run FAULT_IMAGE="$T/img" "$@" -- -s "$SYS" "$E_DEVPATH" "$T/img"
	status_is 2
	file_is "$REQ/loading" 1-1 "loading ($*)"
	stderr_is "fwload: x.bin: file $word while being copied: $T/img; request aborted"
}

for path in FAULT_NO_SENDFILE=0 FAULT_NO_SENDFILE=1; do
	aborts shrank "$path" FAULT_TRUNCATE_AT=300000
	aborts shrank "$path" FAULT_TRUNCATE_AT=1 FAULT_SHORT=4096
	aborts changed "$path" FAULT_APPEND_AT=300000
	aborts changed "$path" FAULT_APPEND_AT=$size        # after the last byte
	aborts changed "$path" FAULT_REWRITE_AT=300000      # same size
	aborts changed "$path" FAULT_REWRITE_AT=$size
done

# The control: the same faults past the end never fire; the load succeeds.
cp "$T/master" "$T/img"
touch -t 200001010000 "$T/img"
request x.bin
fault_run FAULT_IMAGE="$T/img" FAULT_TRUNCATE_AT=$((size + 1)) FAULT_APPEND_AT=$((size + 1)) \
	FAULT_REWRITE_AT=$((size + 1)) -- -s "$SYS" "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/master"
