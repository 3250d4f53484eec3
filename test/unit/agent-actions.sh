# SPDX-License-Identifier: MIT
# Rules whose image is a program's output, streamed through fwload (no file
# written): extract=SOURCE,OFFSET,SIZE (fwload-extract, its options named
# as its own, in the rule's order) and run=/PROGRAM (FIRMWARE and DEVPATH
# in its environment; user=NAME: NAME's uid and gid from /etc/passwd, no
# supplementary groups, through fwload-runas, confined: the event's
# variables, HOME=/ and the kernel's PATH alone, / as its directory, no
# controlling terminal, a session of its own, no new privileges, no
# capability). A short extract, a program that fails, a user= that does
# not exist, a passwd entry whose uid or gid is not digits (before:
# "1$(cmd)" ran cmd as root), root's uid or the overflow uid: aborted or
# refused, nothing committed, one line. Rules that misuse them are
# reported and ignored.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-extract fwload-keep fwload-runas

R=$T/root
mkdir -p "$R/lib/firmware"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
runas_user  # (the program run as that user lives in $T)
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
# What a program run as a user finds: its ids, directory, terminal,
# session, privileges, environment.
cat >"$T/probe" <<'PROG'
#!/bin/sh
echo "ids=$(id -u):$(id -g):$(id -G) cwd=$(pwd -P)"
if (: </dev/tty) 2>/dev/null; then echo "tty=opens"; else echo "tty=none"; fi
read -r pid _ _ ppid pgrp sid tty_nr _ <"/proc/$$/stat"
read -r _ _ _ _ _ psid _ <"/proc/$ppid/stat"
echo "session=$([ "$sid" = "$ppid" ] && [ "$pgrp" = "$sid" ] && [ "$psid" = "$sid" ] && echo "its parent's, and its parent's group" ||
	echo "$sid (pid $pid, group $pgrp, parent $ppid)") tty_nr=$tty_nr"
grep -E '^(CapPrm|CapEff|CapAmb|NoNewPrivs):' "/proc/$$/status"
env | LC_ALL=C sort | grep -v -e '^PWD=' -e '^SHLVL=' -e '^_=' -e '^OLDPWD='
PROG
chmod 755 "$T/prog" "$T/fails" "$T/probe"
# Users fwload-runas refuses (root's uid, the overflow uid, a user of its
# own in the overflow group, nogroup: as adduser --system without --group
# makes one), and one whose uid field is shell code (before: run by the
# agent's eval, as root).
{
	echo "toor:x:0:0::/root:/bin/sh"
	echo "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"
	echo "nogrp:x:64991:65534::/nonexistent:/usr/sbin/nologin"
	echo "evil:x:1\$(touch $T/pwned):2::/:/bin/sh"
} >>"$FWLOAD_PASSWD"
cat >"$T/fwload.rules" <<RULES
firmware=cal.bin extract=$T/art.img,0x100,0x80
firmware=cal-mac.bin extract=$T/art.img,256,128 mac=02:11:22:33:44:55 patch-mac=0x6
firmware=short.bin extract=$T/art.img,0xf80,0x100
firmware=run.bin run=$T/prog
firmware=runas.bin run=$T/prog user=$RUNAS
firmware=ghost.bin run=$T/prog user=fwload-no-such-user
firmware=fails.bin run=$T/fails
firmware=bad1.bin extract=$T/art.img,0x100
firmware=bad2.bin mac=02:11:22:33:44:55 extract=$T/art.img,0,1
firmware=bad3.bin run=$T/prog name=x.bin
firmware=bad4.bin user=$RUNAS
firmware=bad5.bin run=$T/prog extract=$T/art.img,0,1
firmware=bad6.bin run=relative/prog
firmware=confined.bin run=$T/probe user=$RUNAS
firmware=root.bin run=$T/prog user=toor
firmware=overflow.bin run=$T/prog user=nobody
firmware=evil.bin run=$T/prog user=evil
firmware=nogroup.bin run=$T/prog user=nogrp
RULES

request cal.bin
run agent firmware
status_is 0
cp "$LOGF" "$T/log.first"  # (the rules' warnings: said by the first event, which reads the files)
file_is "$REQ/loading" 10
data_is "$T/cal.want"
log_has "fwload: loaded cal.bin (128 bytes, $(sed -n 's/^fwload: loaded cal.bin (128 bytes, \([0-9]*\) ms.*/\1/p' "$LOGF") ms) from standard input via $LIBEXEC/fwload-extract for $TF/cal.bin"

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

request runas.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
n=$RUNAS_ID:$RUNAS_ID
file_is "$REQ/data" "runas.bin|$TF/runas.bin|$n:${n#*:}
" "the output of a program run as $RUNAS (uid:gid:groups)"

: >"$LOGF"
request ghost.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
log_matches "fwload: cancelled ghost\.bin for .*; user=fwload-no-such-user: no such user in $(ere "$T/passwd"); rule $(ere "$T/fwload.rules"):6 refused"

: >"$LOGF"
request fails.bin
run agent firmware
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: fails\.bin: $(ere "$LIBEXEC/fwload-keep") failed \(exit status 3\) on standard input: no calibration here; request aborted; run= $(ere "$T/fails") \(rule $(ere "$T/fwload.rules"):[0-9]+\)"

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
grep -qx "action:   extract: the image is $LIBEXEC/fwload-extract $T/art.img 256 128 --mac 02:11:22:33:44:55 --patch-mac 0x6" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
grep -qx "decision: load the program's output, committed only if it exits 0" "$T/stdout" || fail "explain: $(cat "$T/stdout")"
run ctl explain runas.bin
status_is 0
grep -qx "action:   run: the image is the output of $T/prog as user $RUNAS ($n, no supplementary groups)" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"
run ctl explain ghost.bin
status_is 2
grep -qx "decision: user=fwload-no-such-user: no such user in $T/passwd; rule $T/fwload.rules:6 refused; the request would be aborted" "$T/stdout" ||
	fail "explain: $(cat "$T/stdout")"

# Confined: the event's variables alone (not the caller's SSH_AUTH_SOCK or
# the fake tree's), HOME=/, the kernel's PATH; / as its directory (the
# agent runs in $T here); no terminal to open, the session fwload made for
# COMMAND (led by fwload-keep, its parent, in whose process group it is,
# which fwload ends whole when fwload-keep ends; fwload-keep ends it and
# all it starts with the load and when fwload dies: the program cannot get
# a controlling terminal even by opening one), no capability, no new
# privileges.
request confined.bin
# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
(cd "$T" && run kernel_env SSH_AUTH_SOCK=/tmp/agent.sock TOKEN=secret $TEST_SH "$REPO/firmware.agent" firmware)
st=$?
status_is 0
file_is "$REQ/loading" 10
cat >"$T/want" <<END
ids=$RUNAS_ID:$RUNAS_ID:$RUNAS_ID cwd=/
tty=none
session=its parent's, and its parent's group tty_nr=0
CapPrm:	0000000000000000
CapEff:	0000000000000000
CapAmb:	0000000000000000
NoNewPrivs:	1
ACTION=add
ASYNC=0
DEVPATH=$TF/confined.bin
FIRMWARE=confined.bin
HOME=/
PATH=$KPATH
SEQNUM=$E_SEQNUM
SUBSYSTEM=firmware
TIMEOUT=60
END
cmp -s "$T/want" "$REQ/data" || fail "the program run as $RUNAS found: $(cat "$REQ/data")"

# Root's uid, the overflow uid and the overflow gid: refused by
# fwload-runas, one line in fwload's, nothing run.
for u in root:"uid 0 \\(root\\)" overflow:"uid 65534 \\(the overflow uid, nobody\\)" \
	nogroup:"gid 65534 \\(the overflow gid, nogroup\\)"; do
	: >"$LOGF"
	request "${u%%:*}.bin"
	run agent firmware
	status_is 2
	file_is "$REQ/loading" 1-1
	log_matches "fwload: ${u%%:*}\\.bin: $(ere "$LIBEXEC/fwload-keep") failed \\(exit status 100\\) on standard input: fwload-runas: refusing ${u#*:}: a user of its own, one that runs nothing else, for the program; nothing run; request aborted; run= .*"
done

# A uid field that is not digits: refused before anything runs (before:
# "1$(touch FILE):2" passed a [0-9]*:[0-9]* check and the eval ran it).
: >"$LOGF"
request evil.bin
run agent firmware
status_is 2
file_is "$REQ/loading" -1
no_file "$T/pwned" "the passwd file's uid field was run as shell code"
log_matches "fwload: cancelled evil\\.bin for .*; user=evil: its uid and gid in $(ere "$T/passwd") are not numbers; rule $(ere "$T/fwload.rules"):17 refused"
run ctl explain evil.bin
status_is 2
no_file "$T/pwned" "explain ran the passwd file's uid field as shell code"
