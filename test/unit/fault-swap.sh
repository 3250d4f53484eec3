# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# A FIFO swapped in for the image right after fwload looked at its name is
# never opened: fwload holds the inode it checked (an O_PATH handle) and
# reopens that, through /proc/self/fd. A writer blocked on the FIFO would be
# released by any open for reading; it must stay blocked, and the image
# fwload checked is the one loaded. (Before, stat() then open() of the name
# opened the FIFO.) Without /proc, the inode is reopened through its file
# handle (open_by_handle_at), never by name: the same image is loaded and
# the FIFO is never opened (before, the FIFO was opened O_NONBLOCK, which
# released its writer, and the request was aborted). Where the file system
# has no handles either, the image is refused, the FIFO still unopened.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/master" 5000

# swap [FAULT...]: load $T/img with a FIFO renamed over it after the first
# look; sets $released when a blocked writer got a reader.
swap() {
	rm -f "$T/img" "$T/fifo" "$T/released"
	cp "$T/master" "$T/img"
	mkfifo "$T/fifo"
	# shellcheck disable=SC2016 # the writer's own script
	sh -c 'exec 3>"$0" && echo yes >"$1"' "$T/fifo" "$T/released" &
	writer=$!
	sleep 0.3  # the writer is blocked in open()
	request x.bin
	fault_run FAULT_IMAGE="$T/img" FAULT_SWAP="$T/fifo" "$@" -- -s "$SYS" "$E_DEVPATH" "$T/img"
	[ -p "$T/img" ] || fail "the FIFO was not swapped in ($*)"
	sleep 0.3
	released=no
	[ -e "$T/released" ] && released=yes
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
	# unblock a writer still waiting, so that nothing is left behind
	[ $released = yes ] || { exec 4<>"$T/img"; exec 4<&-; }
	:
}

swap
status_is 0
file_is "$REQ/loading" 10
data_is "$T/master"
assert_eq "the FIFO's writer released" no "$released"

swap FAULT_NO_PROC=1
status_is 0
file_is "$REQ/loading" 10
data_is "$T/master"
assert_eq "the FIFO's writer released (no /proc)" no "$released"

swap FAULT_NO_PROC=1 FAULT_NO_HANDLE=1
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stderr_matches "fwload: x\.bin: cannot open $(ere "$T/img") without /proc: errno [0-9]+ \(EOPNOTSUPP\); request aborted"
assert_eq "the FIFO's writer released (no /proc, no handles)" no "$released"
