# SPDX-License-Identifier: MIT
# fwloadctl rescan --watch SECONDS keeps looking once a second: a
# request that appears later (with no uevent) is served; SIGTERM ends the
# watch at once; a bad SECONDS is a usage error.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
mkimage "$T/fw/late.bin" 4000
mkdir -p "$SYS/class/firmware"
ctl rescan --watch 8 >"$T/watch.out" 2>&1 &
watch=$!
sleep 1
pending late.bin
i=0
while [ "$(cat "$REQ/loading")" != 10 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
file_is "$REQ/loading" 10
data_is "$T/fw/late.bin"
# SIGTERM to fwloadctl itself (not to the shell that runs ctl in the
# background: mksh's waits on, and so does its fwloadctl).
bg_pid "$watch"
kill -TERM "$bgpid"
i=0
while kill -0 "$bgpid" 2>/dev/null && [ $i -lt 30 ]; do
	sleep 0.1
	i=$((i + 1))
done
! kill -0 "$bgpid" 2>/dev/null || fail "the watch did not stop on SIGTERM"
wait "$watch"
grep -qx 'late.bin: 0' "$T/watch.out" || fail "watch said: $(cat "$T/watch.out")"

run ctl rescan --watch soon
status_is 100
