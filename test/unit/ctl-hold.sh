# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# fwloadctl and HOLD=: setup raises the kernel's timeout to HOLD + 60 (0,
# for ever, too) and allows holding again; rescan never waits for a hold
# (status 8: an agent of its own holds the request in the background);
# status shows HOLD and each held request with the seconds it has left;
# settle serves what is found now, cancels every other request (one line
# each; exit 0), and from then on a name not found is cancelled at once.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

P=$T/proc
mkdir -p "$P/sys/kernel/firmware_config" "$SYS/class/firmware" "$T/fw"
echo /sbin/hotplug >"$P/sys/kernel/hotplug"
echo 0 >"$P/sys/kernel/firmware_config/force_sysfs_fallback"
echo 60 >"$SYS/class/firmware/timeout"
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" HOLD=40

# setup: the timeout covers HOLD; a settle before is forgotten.
mkdir -p "$RUN"
: >"$RUN/settled"
run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug $TEST_SH "$REPO/fwloadctl" setup
status_is 0
file_is "$SYS/class/firmware/timeout" "100
"
grep -qxF "fwloadctl: setup: uevent helper /sbin/hotplug, sysfs fallback forced, timeout 100 s (HOLD=40, and 60 s for the load); rescanning pending requests" "$T/stdout" ||
	fail "setup said: $(cat "$T/stdout")"
no_file "$RUN/settled" "settle's marker after setup"
for t in 0 7; do
	conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" HOLD=40 "TIMEOUT=$t"
	run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug $TEST_SH "$REPO/fwloadctl" setup
	file_is "$SYS/class/firmware/timeout" "100
" "the timeout with TIMEOUT=$t"
done
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" HOLD=40 TIMEOUT=500
run kernel_env FWLOAD_HOTPLUG=/sbin/hotplug $TEST_SH "$REPO/fwloadctl" setup
file_is "$SYS/class/firmware/timeout" "500
" "the timeout with TIMEOUT=500"
conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw" HOLD=40

# explain: the hold as a decision (8).
run ctl explain x.bin
status_is 8
grep -qx "decision: not found; the request would be held for up to 40 s (HOLD=40): served within a second of the file appearing in one of these directories, cancelled at HOLD's end or by fwloadctl settle" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"

# rescan: back at once (8); the request held in the background.
pending a.bin
a=$REQ
hold_rec
reca=$REC
pending b.bin
b=$REQ
hold_rec
recb=$REC
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
# (Through a pipe: a holder left on rescan's stdout would keep it open for
# the 40 s of HOLD.)
uptime_s
r0=$up
t0=$(date +%s)
ctl rescan 2>"$T/stderr" | cat >"$T/stdout"
t1=$(date +%s)
[ $((t1 - t0)) -lt 20 ] || fail "rescan took $((t1 - t0)) s: it waited for a hold"
stdout_is "a.bin: 8
b.bin: 8"
until_true "a's hold record" test -f "$reca"
until_true "b's hold record" test -f "$recb"
read -r _ pa _ <"$reca"
kill -0 "$pa" || fail "a.bin's holder $pa is not running"
REQ=$a untouched

# status: HOLD, and each held request's time left: its record's end (HOLD,
# 40 s, after the hold began, during the rescan) less the boot clock when
# status looked (read here before and after it).
read -r ua _ <"$reca"
uptime_s
u0=$up
{ [ "$ua" -ge $((r0 + 40)) ] && [ "$ua" -le $((u0 + 40)) ]; } ||
	fail "a.bin held until $ua, the boot clock $r0 before the rescan and $u0 after, HOLD=40"
run ctl status
uptime_s
status_is 0
grep -qxF "hold:     HOLD=40: a name not found is held up to 40 s (until fwloadctl settle)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
grep -Eqx "  a\.bin  $(ere "$TF/a.bin")  age [0-9]+ s  held, [0-9]+ s left \(agent pid $pa\)" "$T/stdout" ||
	fail "status: $(cat "$T/stdout")"
left=$(sed -n 's/^  a\.bin  .*  held, \([0-9]*\) s left (agent pid [0-9]*)$/\1/p' "$T/stdout")
{ [ "$left" -ge $((ua - up)) ] && [ "$left" -le $((ua - u0)) ]; } ||
	fail "status: a.bin $left s left, held until $ua, the boot clock $u0 to $up: $(cat "$T/stdout")"

# A file appears: the background holder loads it.
mkimage "$T/fw/a.bin" 3000
until_true "a.bin loaded" grep -qx 10 "$a/loading"
REQ=$a data_is "$T/fw/a.bin"

# settle: b's file is there now, c's is not, d's request is held by an
# agent started by the kernel (helper mode): b loaded, c and d cancelled,
# one line each; d's agent leaves quietly.
mkimage "$T/fw/b.bin" 2000
pending c.bin
c=$REQ
hold_rec
recc=$REC
request d.bin
d=$REQ
hold_rec
recd=$REC
(
	agent firmware >/dev/null 2>&1
	echo $? >"$T/d.st"
) &
dpid=$!
until_true "d's hold record" test -f "$recd"
# (d is a request the rescan sees too)
ln -s "../..$TF/d.bin" "$SYS/class/firmware/d.bin"
printf 'FIRMWARE=d.bin\nTIMEOUT=60\nASYNC=0\n' >"$d/uevent"
: >"$LOGF"
rm -r "$a" "$SYS/class/firmware/a.bin"
unset E_ACTION E_DEVPATH E_FIRMWARE E_SUBSYSTEM E_TIMEOUT E_ASYNC E_SEQNUM
run ctl settle
status_is 0
[ -f "$RUN/settled" ] || fail "no $RUN/settled after settle"
REQ=$b data_is "$T/fw/b.bin"
file_is "$b/loading" 10 "b.bin's loading"
file_is "$c/loading" -1 "c.bin's loading"
wait "$dpid"
read -r dst <"$T/d.st"
[ "$dst" = 5 ] || fail "the held agent of d.bin ended with $dst, want 5 (settle's rescan answered it)"
file_is "$d/loading" -1 "d.bin's loading"
[ "$(grep -c 'fwload: cancelled c\.bin .*(HOLD=40, but fwloadctl settle has run)$' "$LOGF")" = 1 ] ||
	fail "c.bin's lines: $(cat "$LOGF")"
[ "$(grep -c 'fwload: cancelled d\.bin .*(HOLD=40, but fwloadctl settle has run)$' "$LOGF")" = 1 ] ||
	fail "d.bin's lines: $(cat "$LOGF")"
grep -qx "fwload: settle: holding ends (HOLD=40); .*" "$LOGF" || fail "no settle line: $(cat "$LOGF")"
run ctl status
grep -qxF "hold:     settled (fwloadctl settle has run: a name not found is cancelled at once until setup or the next boot)" "$T/stdout" ||
	fail "status after settle: $(cat "$T/stdout")"
# The held agents leave at their next search (a quarter second; longer
# under qemu-user), their records with them.
for r in "$recb" "$recc" "$recd"; do
	until_true "the hold record $r gone after settle" test ! -e "$r"
done
run ctl explain x.bin
status_is 1
grep -qx "decision: not found (HOLD=40, but fwloadctl settle has run); the request would be cancelled" "$T/stdout" ||
	fail "explain after settle: $(cat "$T/stdout")"
# After settle: cancelled at once.
request e.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
run ctl settle extra
status_is 100
