# SPDX-License-Identifier: MIT
# Two requests whose DEVPATHs differ only in a '/' against a '!': a device
# .../1-1/1-1:1.0 asking for fw.bin, and its parent .../1-1 asking for
# 1-1:1.0/fw.bin (the kernel writes that '/' as '!'). Each hold has a
# record of its own, keyed by the request's identity (fwload-pending -k: the device
# and inode of its kernfs directory, as fwload's lock), never by its name:
# both are held at once, and both are served when their files appear. (With
# the DEVPATH as the key, '/' written '!', they shared a record: the second
# agent "took over", the first left without an answer, and its driver
# waited for the kernel's timeout.)
# shellcheck disable=SC2154 # req1, rec1 etc.: set by hold() through eval
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30
USB=/devices/pci0000:00/0000:00:14.0/usb1/1-1

# hold NAME DEVPATH N: the agent for a request in the background, its
# status in $T/stN; $reqN and $recN its directory and hold record.
hold() {
	request "$1" "$2"
	hold_rec
	eval "req$3=\$REQ rec$3=\$REC"
	(
		agent firmware >"$T/out$3" 2>&1
		echo $? >"$T/st$3"
	) &
}
hold fw.bin "$USB/1-1:1.0/fw.bin" 1
hold 1-1:1.0/fw.bin "$USB/1-1:1.0!fw.bin" 2
[ "$rec1" != "$rec2" ] || fail "two requests, one hold record: $rec1"
until_true "the first request's hold record" test -f "$rec1"
until_true "the second request's hold record" test -f "$rec2"
read -r _ p1 _ dev1 <"$rec1"
read -r _ p2 _ dev2 <"$rec2"
[ "$p1" != "$p2" ] || fail "one agent holds both: $p1"
assert_eq "the first record's DEVPATH" "$USB/1-1:1.0/fw.bin" "$dev1"
assert_eq "the second record's DEVPATH" "$USB/1-1:1.0!fw.bin" "$dev2"
file_is "$req1/loading" "" "the first request (held)"
file_is "$req2/loading" "" "the second request (held)"
mkfw "$D/fw.bin" "for the device"
mkfw "$D/1-1:1.0/fw.bin" "for the parent"
wait
read -r st1 <"$T/st1"
read -r st2 <"$T/st2"
assert_eq "the first agent's status" 0 "$st1"
assert_eq "the second agent's status" 0 "$st2"
file_is "$req1/loading" 10 "the first request's loading"
file_is "$req1/data" "for the device" "the first request's data"
file_is "$req2/loading" 10 "the second request's loading"
file_is "$req2/data" "for the parent" "the second request's data"
no_file "$rec1" "the first hold record after the load"
no_file "$rec2" "the second hold record after the load"
