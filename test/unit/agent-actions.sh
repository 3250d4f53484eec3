# SPDX-License-Identifier: MIT
# Rules whose image is a program's output, streamed through fwload (no file
# written): extract=SOURCE,OFFSET,SIZE (fwload-extract, its options named
# as its own, in the rule's order) and run=/PROGRAM (FIRMWARE and DEVPATH
# in its environment; user=NAME: NAME's uid and gid from /etc/passwd, no
# supplementary groups, through fwload-runas). A short extract, a program
# that fails, a user= that does not exist: aborted or refused, nothing
# committed, one line. Rules that misuse them are reported and ignored.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
mkdir -p "$R/lib/firmware"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
chmod 711 "$T"  # (the program run as nobody lives here)
mkimage "$T/art.img" 4096
# The bytes at 0x100, 0x80 of them; with the address 02:11:22:33:44:55
# patched in at 0x6 of them.
dd if="$T/art.img" of="$T/cal.want" bs=1 skip=256 count=128 2>/dev/null
{ head -c 6 "$T/cal.want"; printf '\002\021\042\063\104\125'; tail -c +13 "$T/cal.want"; } >"$T/cal.mac"
[ "$(wc -c <"$T/cal.mac")" = 128 ] || fail "cal.mac: $(wc -c <"$T/cal.mac") bytes"
cat >"$T/prog" <<'PROG'
#!/bin/sh
printf '%s|%s|%s\n' "$FIRMWARE" "$DEVPATH" "$(id -u):$(id -g):$(id -G)"
PROG
cat >"$T/fails" <<'PROG'
#!/bin/sh
echo "partial output"
echo "no calibration here" >&2
exit 3
PROG
chmod 755 "$T/prog" "$T/fails"
cat >"$T/fwload.rules" <<RULES
firmware=cal.bin extract=$T/art.img,0x100,0x80
firmware=cal-mac.bin extract=$T/art.img,256,128 mac=02:11:22:33:44:55 patch-mac=0x6
firmware=short.bin extract=$T/art.img,0xf80,0x100
firmware=run.bin run=$T/prog
firmware=nobody.bin run=$T/prog user=nobody
firmware=ghost.bin run=$T/prog user=fwload-no-such-user
firmware=fails.bin run=$T/fails
firmware=bad1.bin extract=$T/art.img,0x100
firmware=bad2.bin mac=02:11:22:33:44:55 extract=$T/art.img,0,1
firmware=bad3.bin run=$T/prog name=x.bin
firmware=bad4.bin user=nobody
firmware=bad5.bin run=$T/prog extract=$T/art.img,0,1
firmware=bad6.bin run=relative/prog
RULES

request cal.bin
run agent firmware
status_is 0
cp "$LOGF" "$T/log.first"  # (the rules' warnings: said by the first event, which reads the files)
file_is "$REQ/loading" 10
data_is "$T/cal.want"
log_has "fwload: loaded cal.bin (128 bytes, $(sed -n 's/^fwload: loaded cal.bin (128 bytes, \([0-9]*\) ms.*/\1/p' "$LOGF") ms) from standard input via $REPO/fwload-extract for $TF/cal.bin"

request cal-mac.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
data_is "$T/cal.mac"

: >"$LOGF"
request short.bin
run agent firmware
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: short\.bin: .*fwload-extract failed \(exit status 2\).*; request aborted"

request run.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
file_is "$REQ/data" "run.bin|$TF/run.bin|0:0:0
"

request nobody.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
n=$(id -u nobody):$(id -g nobody)
file_is "$REQ/data" "nobody.bin|$TF/nobody.bin|$n:${n#*:}
" "the output of a program run as nobody (uid:gid:groups)"

: >"$LOGF"
request ghost.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
log_matches "fwload: cancelled ghost\.bin for .*; user=fwload-no-such-user: no such user in /etc/passwd; rule $(ere "$T/fwload.rules"):6 refused"

: >"$LOGF"
request fails.bin
run agent firmware
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: fails\.bin: $(ere "$T/fails") failed \(exit status 3\).*no calibration here.*; request aborted"

# The rules that misuse them: reported (once, when the rules are read),
# ignored (the name is searched as a file: not found, cancelled).
for i in 1 2 3 4 5 6; do
	request "bad$i.bin"
	run agent firmware
	status_is 1
done
for why in "'extract=$T/art.img,0x100' is not firmware=" "mac goes after extract=" \
	"run= goes with no name=, dir= or hold=" "user= goes with run=" "one extract= or run= a rule" \
	"'run=relative/prog' is not firmware="; do
	grep -qF "$why" "$T/log.first" || fail "no warning '$why': $(cat "$T/log.first")"
done

# explain: the action as a decision.
run ctl explain cal-mac.bin
status_is 0
grep -qx "action:   extract: the image is $REPO/fwload-extract $T/art.img 256 128 --mac 02:11:22:33:44:55 --patch-mac 0x6" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
grep -qx "decision: load the program's output, committed only if it exits 0" "$T/stdout" || fail "explain: $(cat "$T/stdout")"
run ctl explain nobody.bin
status_is 0
grep -qx "action:   run: the image is the output of $T/prog as user nobody ($n, no supplementary groups)" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
run ctl explain ghost.bin
status_is 2
grep -qx "decision: user=fwload-no-such-user: no such user in /etc/passwd; rule $T/fwload.rules:6 refused; the request would be aborted" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
