# SPDX-License-Identifier: MIT
# fwloadctl rescan serves every request pending in SYSFS/class/firmware
# (each a link to its request directory, the name in its uevent file), as if
# its uevent came now: a present image is loaded, a missing one cancelled;
# one line per request on stdout, exit status the highest of them. A
# firmware-upload device is no request: left alone. A request another
# answerer holds (5) counts as fine.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
mkimage "$T/fw/sub/here.bin" 5000
pending sub/here.bin
here=$REQ
pending gone.bin
gone=$REQ
: >"$SYS/class/firmware/timeout"  # the class's own attribute, not a request

mkimage "$T/fw/flash.bin" 100
pending flash.bin
flash=$REQ
: >"$flash/remaining_size"

unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
run ctl rescan
status_is 1
file_is "$here/loading" 10
REQ=$here
data_is "$T/fw/sub/here.bin"
file_is "$gone/loading" -1
grep -qx 'sub/here.bin: 0' "$T/stdout" || fail "no line for sub/here.bin: $(cat "$T/stdout")"
grep -qx 'gone.bin: 1' "$T/stdout" || fail "no line for gone.bin: $(cat "$T/stdout")"
grep -q "^fwload: loaded sub/here.bin (5000 bytes, [0-9]* ms) from $T/fw/sub/here.bin for $TF/sub!here.bin\$" "$LOGF" ||
	fail "no load line: $(cat "$LOGF")"
file_is "$flash/loading" "" "the upload device's loading"
file_is "$flash/data" "" "the upload device's data"
! grep -q flash "$T/stdout" || fail "the upload device was rescanned: $(cat "$T/stdout")"

# The exit status is the highest of the requests' that did not end well,
# whichever order the kernel lists them in: an aborted one (2: not in the
# manifest, UNLISTED=refuse) beside a missing one (1) gives 2, made first
# or last. (It was the last listed: 1 or 2 by the directory's order.)
mkimage "$T/fw/unlisted.bin" 100
: >"$T/SUMS"
for first in unlisted.bin missing.bin; do
	rm -r "$SYS/class/firmware"/*
	conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" "MANIFEST=$T/SUMS" UNLISTED=refuse
	if [ "$first" = unlisted.bin ]; then
		pending unlisted.bin
		pending missing.bin
	else
		pending missing.bin
		pending unlisted.bin
	fi
	unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
	run ctl rescan
	status_is 2
	{ grep -qx 'unlisted.bin: 2' "$T/stdout" && grep -qx 'missing.bin: 1' "$T/stdout"; } ||
		fail "rescan, $first made first: $(cat "$T/stdout")"
	# settle: not found is done there; the aborted one is not.
	rm -r "$SYS/class/firmware"/*
	pending missing.bin
	pending unlisted.bin
	run ctl settle
	status_is 2
	rm -f "$T/run/fwload/settled"
done
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"

# Busy (another answerer holds the request): fine.
rm -r "$SYS/class/firmware"/*
pending held.bin
# (fwload-pending lists the requests; the stand-in fwload answers none.)
cat >"$T/busy-fwload" <<END
#!/bin/sh
exit 5
END
chmod 755 "$T/busy-fwload"
FWLOAD=$T/busy-fwload
mkimage "$T/fw/held.bin" 100
run ctl rescan
status_is 0
stdout_is "held.bin: 5"
run ctl rescan extra
status_is 100

# FIRMWARE is taken whole from the uevent file: everything between
# "FIRMWARE=" and the kernel's last two lines (TIMEOUT=, ASYNC=). A name
# with a newline is not its first line (that would load x.bin, another
# image): the agent gets the whole name and cancels it. A file of another
# shape gives an empty name: cancelled too.
rm -r "$SYS/class/firmware"/*
FWLOAD=$FWBIN
mkimage "$T/fw/x.bin" 100
nlname="x.bin
HOTPLUG_DIR=$T/hooks"
pending "$nlname"
odd=$REQ odd_dev=$E_DEVPATH
pending y.bin
printf 'FIRMWARE=x.bin\nASYNC=1\n' >"$REQ/uevent"
shape=$REQ
pending z.bin
printf 'FIRMWARE=x.bin\nTIMEOUT=1x\nASYNC=1\n' >"$REQ/uevent"
shape2=$REQ
rm -f "$LOGF"
run ctl rescan
status_is 4
for r in "$odd" "$shape" "$shape2"; do
	file_is "$r/loading" -1 "loading of $r"
	file_is "$r/data" "" "data of $r"
done
nl='
'
log_has "fwload: cancelled x.bin\\x0aHOTPLUG_DIR=$T/hooks for ${odd_dev%%"$nl"*}\\x0a${odd_dev#*"$nl"}; bad FIRMWARE name (control character in name)"
# rescan's own line names it as the log does: a name cannot write a second
# line of its own (nor drive the terminal: \x1b below) where it is printed.
grep -qxF "x.bin\\x0aHOTPLUG_DIR=$T/hooks: 4" "$T/stdout" || fail "rescan's line for the name with a newline: $(cat "$T/stdout")"
# (fwload names a request with no name after its directory)
log_has "fwload: cancelled y.bin for $TF/y.bin; bad FIRMWARE name (empty name)"
log_has "fwload: cancelled z.bin for $TF/z.bin; bad FIRMWARE name (empty name)"

# Control bytes and backslashes in a name: escaped in rescan's line and
# in status's (they reached the terminal byte for byte).
rm -r "$SYS/class/firmware"/*
esc=$(printf 'a\033]0;TITLE\007\033[2J\\.bin')
pending "$esc"
run ctl status
grep -qF 'a\x1b]0;TITLE\x07\x1b[2J\x5c.bin' "$T/stdout" || fail "status's line for a name with control bytes: $(cat "$T/stdout")"
grep -q "$(printf '\033')" "$T/stdout" && fail "status printed an escape byte"
run ctl rescan
grep -qxF 'a\x1b]0;TITLE\x07\x1b[2J\x5c.bin: 4' "$T/stdout" || fail "rescan's line for a name with control bytes: $(cat "$T/stdout")"

# A name that ends in a newline: its DEVPATH does too. rescan and settle
# answer it (cancelled: a control character), as the uevent path does;
# they never did (the DEVPATH taken through $(...) lost its newline, and
# the agent found no request there).
for cmd in rescan settle; do
	rm -r "$SYS/class/firmware"/*
	pending "x.bin$nl"
	rm -f "$LOGF"
	run ctl "$cmd"
	file_is "$REQ/loading" -1 "$cmd: loading of a request whose name ends in a newline"
	file_is "$REQ/data" "" "$cmd: data of a request whose name ends in a newline"
	log_has "fwload: cancelled x.bin\\x0a for $TF/x.bin\\x0a; bad FIRMWARE name (control character in name)"
done
