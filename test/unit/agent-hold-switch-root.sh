# SPDX-License-Identifier: MIT
# A request held in an initramfs while its /init moves /sys, /proc and /run
# into the real root for switch_root, one mount after the other: the held
# agent sees its request's files, or the boot clock, go while its record is
# still in sight. That is not the request's end: the agent leaves quietly,
# answers nothing, and leaves the record for the real root's rescan, which
# keeps the hold's end (kernel layer: initramfs-init). Here the fake sysfs,
# then the fake procfs, is moved away under a held agent.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30

# moved WHAT DIR: the held agent, with DIR moved away once its record is
# made: gone within GUARD, status 5, the record as it was, nothing written
# to the request, one line (the hold's).
moved() {
	request "$1.bin"
	hold_rec
	: >"$LOGF"
	agent_bg
	until_true "the hold record" test -s "$REC"
	read -r rec <"$REC"
	mv "$2" "$2.moved" || fail "cannot move $2"
	until_true "the held agent's end ($1 moved away)" test -f "$T/bg.st"
	wait "$bg"
	read -r st <"$T/bg.st"
	mv "$2.moved" "$2" || fail "cannot move $2 back"
	[ "$st" = 5 ] || fail "$1 moved: the held agent ended with $st, want 5: $(cat "$T/bg.out") log: $(cat "$LOGF")"
	[ -f "$REC" ] || fail "$1 moved: the record is gone (a rescan would hold it again, from now)"
	[ "$(cat "$REC")" = "$rec" ] || fail "$1 moved: the record changed: $(cat "$REC"), was $rec"
	file_is "$REQ/loading" "" "$1 moved: loading"
	file_is "$REQ/data" "" "$1 moved: data"
	{ [ "$(wc -l <"$LOGF")" = 1 ] && grep -q "^fwload: $1\\.bin held for " "$LOGF"; } ||
		fail "$1 moved: want the hold's line alone: $(cat "$LOGF")"
	rm -f "$REC"
}
moved sysfs "$SYS/devices"
moved procfs "$T/proc"
