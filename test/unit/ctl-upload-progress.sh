# SPDX-License-Identifier: MIT
# fwloadctl upload's progress. Without a terminal on stderr: plain lines,
# one when the writing starts, one at the hand-off, one per phase the
# device goes through, nothing redrawn. On a terminal (a pseudo-terminal,
# test/ptyrun): one line redrawn in place ("\r", "\033[K"), the bytes
# written with a bar to 100 %, then each phase, remaining_size as a
# percentage while it transfers, the time so far; never as wide as the
# terminal (80, 40 and 24 columns); a newline at the end, then the
# outcome. --quiet: nothing but a failure. The device (a fake one) moves
# on only once fwloadctl has shown where it is.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=upload-lib
. "$REPO/test/unit/upload-lib"

slow_xz
conf "LOG=$LOGF"
upload_dev up.bin
mkimage "$T/img.xz" 3000  # slow_xz passes it on as it is

# phases FILE: the device goes through its phases, each once FILE shows
# the one before: preparing, transferring (3000 bytes left, then 1500:
# "50%"), programming, idle (no error).
phases() {
	seen "$1" receiving
	up_set status preparing
	seen "$1" preparing
	up_set remaining_size 3000
	up_set status transferring
	seen "$1" transferring
	up_set remaining_size 1500
	[ -z "$bar" ] || seen "$1" " 50% "
	up_set status programming
	seen "$1" programming
	up_set remaining_size 0
	up_set status idle
}

# Plain lines.
bar=''
ctl upload up.bin "$T/img.xz" >"$T/stdout" 2>"$T/stderr" &
c=$!
start_go
phases "$T/stderr"
wait "$c"
st=$?
status_is 0
sed 's/([0-9]* s)$/(N s)/' "$T/stderr" >"$T/lines"
file_is "$T/lines" "fwloadctl: upload up.bin: writing $T/img.xz through xz to $UP_DEV
fwloadctl: upload up.bin: handed over 3000 bytes (N s)
fwloadctl: upload up.bin: receiving (N s)
fwloadctl: upload up.bin: preparing (N s)
fwloadctl: upload up.bin: transferring (N s)
fwloadctl: upload up.bin: programming (N s)
" "the plain lines"
grep -q "$(printf '\r')" "$T/stderr" && fail "a carriage return without a terminal"
cmp -s "$T/img.xz" "$UP/data" || fail "data differs"

# On terminals of three widths.
bar=1
for cols in 80 40 24; do
	rm -f "$T/started" "$T/go"
	up_set status idle
	: >"$UP/loading"
	in_pty "$cols" "$T/pty" upload up.bin "$T/img.xz"
	start_go
	phases "$T/pty"
	wait "$PTY"
	st=$?
	status_is 0
	bar_lines "$T/pty" >"$T/bars"
	[ -s "$T/bars" ] || fail "no bar drawn on $cols columns: $(show "$T/pty")"
	awk -v c="$cols" 'length($0) >= c { print "too wide for " c " columns: " $0; bad = 1 } END { exit bad }' "$T/bars" ||
		fail "$(cat "$T/bars")"
	# the writing (to 100 %), each phase, in order, on one line
	# (the time so far where there is room: on 24 columns it may go)
	t=' [0-9]:[0-9][0-9]$'
	[ "$cols" -ge 40 ] || t=''
	for want in "writing 3000 B +(\[=+\] +)?100%" "receiving +(\[.*\] +)?0%" "preparing +(\[.*\] +)?0%" \
		"transferring +(\[.*\] +)?0%" "transferring +(\[.*\] +)?50%" "programming +(\[=+\] +)?100%"; do
		grep -Eq -- "^$want$t" "$T/bars" || fail "$cols columns: no '^$want$t' in: $(cat "$T/bars")"
	done
	if [ "$cols" -ge 80 ]; then
		grep -Eq '^transferring +\[=+> +\] +50% ' "$T/bars" || fail "no half bar: $(cat "$T/bars")"
		grep -Eq '^programming +\[=+\] +100% ' "$T/bars" || fail "no full bar: $(cat "$T/bars")"
	fi
	# one line redrawn: the only newlines are the bar's last and the outcome's
	tr -cd '\n' <"$T/pty" | wc -c | grep -qx ' *2' || fail "lines: $(show "$T/pty")"
	tail -n 1 "$T/pty" | grep -q '^fwloadctl: upload up.bin: programmed: ' || fail "no outcome: $(show "$T/pty")"
	[ "$(tail -c 1 "$T/pty" | od -An -c | tr -d ' ')" = '\n' ] || fail "no newline at the end"
done

# --quiet on a terminal: nothing at all for a success, the failure alone.
for err in "" programming:hw-error; do
	rm -f "$T/started" "$T/go"
	: >"$UP/loading"
	up_set status idle
	in_pty 80 "$T/pty" upload --quiet up.bin "$T/img.xz"
	start_go
	until_true "the hand-off" grep -q 10 "$UP/loading"
	up_set error "$err"
	up_set status idle
	wait "$PTY"
	st=$?
	if [ -z "$err" ]; then
		status_is 0
		file_is "$T/pty" "" "the terminal with --quiet"
	else
		status_is 10
		grep -q "^fwloadctl: upload up.bin: programming:hw-error: the device reported a hardware fault" "$T/pty" ||
			fail "--quiet's failure: $(show "$T/pty")"
		[ "$(wc -l <"$T/pty")" = 1 ] || fail "--quiet printed more than the failure: $(show "$T/pty")"
	fi
done

# A sleep that takes whole seconds only (busybox built without
# FLOAT_DURATION, OpenWrt's): the device polled once a second, its answer
# still read. (busybox sh runs its own sleep applet, not PATH's.)
cat >"$T/bin/sleep" <<END
#!/bin/sh
echo "\$1" >>"$T/sleeps"
case \$1 in *.*) exit 1 ;; esac
exec /bin/sleep "\$1"
END
chmod 755 "$T/bin/sleep"
rm -f "$T/started" "$T/go" "$T/sleeps"
: >"$UP/loading"
up_set status idle
up_set error ""
ctl upload up.bin "$T/img.xz" >"$T/stdout" 2>"$T/stderr" &
c=$!
start_go
seen "$T/stderr" receiving
up_set status transferring
seen "$T/stderr" transferring
up_set status idle
wait "$c"
st=$?
status_is 0
case $TEST_SH in
busybox*) ;;
*) grep -qx 1 "$T/sleeps" || fail "no whole-second sleep after a fraction was refused: $(cat "$T/sleeps" 2>/dev/null)" ;;
esac
