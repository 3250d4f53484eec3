# SPDX-License-Identifier: MIT
# The rescan takes a request's name whole from its uevent file, which the
# kernel writes as "FIRMWARE=%s\nTIMEOUT=%d\nASYNC=%d\n": the name is all
# between "FIRMWARE=" and the trailing TIMEOUT and ASYNC lines, newlines
# included (a driver may build a name from device data). Lines inside it
# that look like LD_PRELOAD=, HOTPLUG_DIR=, IFS= or PATH= never become
# variables: the child's environment is the allowed keys alone, plus HOME=/,
# the kernel's PATH and FWLOAD_HOLD_DETACH=1 (a firmware event's: a hold
# goes on in an agent of its own, never in a job slot). A file not of that shape is not guessed at: the
# child gets an empty FIRMWARE (the agent refuses it and cancels), and
# hotplugd logs one line; an empty file too.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

# PROGRAM: its whole environment, NUL-separated and sorted, in $T/runs/PID
# (the shell's own PWD, SHLVL, _ and OLDPWD left out).
cat >"$T/prog" <<END
#!/bin/sh
env -0 | grep -zv -e '^PWD=' -e '^SHLVL=' -e '^_=' -e '^OLDPWD=' | LC_ALL=C sort -z >"$T/runs/.\$\$"
mv "$T/runs/.\$\$" "$T/runs/\$\$"
END
chmod 755 "$T/prog"

pending a.bin
printf 'FIRMWARE=a.bin\nLD_PRELOAD=/tmp/evil.so\nHOTPLUG_DIR=/tmp/h\nIFS=x\nPATH=/tmp\nTIMEOUT=60\nASYNC=1\n' >"$REQ/uevent"
pending c.bin
printf 'FIRMWARE=c.bin\nTIMEOUT=1\nASYNC=0\nTIMEOUT=30\nASYNC=1\n' >"$REQ/uevent"
pending b.bin
printf 'FIRMWARE=b.bin\nTIMEOUT=60\nASYNC=1\nLD_PRELOAD=/tmp/evil.so\n' >"$REQ/uevent"
pending d.bin
: >"$REQ/uevent"
hpd_start -x "$T/prog" -S "$SYS"
wait_for '[ "$(runs)" -ge 4 ]' "PROGRAM ran too few times; hotplugd: $(cat "$T/hpd.err")"
sleep 0.2
hpd_stop TERM
[ "$(runs)" = 4 ] || fail "PROGRAM ran $(runs) times, want 4"

# want NAME VAR...: the environment the run for NAME must have had.
want() {
	_dev=$TF/$1
	shift
	printf '%s\0' ACTION=add "DEVPATH=$_dev" FWLOAD_HOLD_DETACH=1 HOME=/ "PATH=$KPATH" SUBSYSTEM=firmware "$@" | LC_ALL=C sort -z
}
want a.bin "FIRMWARE=a.bin
LD_PRELOAD=/tmp/evil.so
HOTPLUG_DIR=/tmp/h
IFS=x
PATH=/tmp" TIMEOUT=60 ASYNC=1 >"$T/want.a.bin"
want c.bin "FIRMWARE=c.bin
TIMEOUT=1
ASYNC=0" TIMEOUT=30 ASYNC=1 >"$T/want.c.bin"
want b.bin FIRMWARE= >"$T/want.b.bin"
want d.bin FIRMWARE= >"$T/want.d.bin"
for f in "$T"/runs/*; do
	dev=$(tr '\0' '\n' <"$f" | sed -n 's/^DEVPATH=//p')
	name=${dev##*/}
	[ -f "$T/want.$name" ] || fail "a run for an unknown request: $(tr '\0' '|' <"$f")"
	cmp -s "$T/want.$name" "$f" ||
		fail "$name: the environment differs; want: $(tr '\0' '|' <"$T/want.$name"); got: $(tr '\0' '|' <"$f")"
	rm "$T/want.$name"
done
grep -qx "hotplugd: rescan: $TF/b.bin: its uevent file is not FIRMWARE=, TIMEOUT=, ASYNC= as the kernel writes it: passed on with an empty FIRMWARE" \
	"$T/hpd.err" || fail "no line for the malformed uevent file: $(cat "$T/hpd.err")"
grep -qx "hotplugd: rescan: $TF/d.bin: its uevent file is not FIRMWARE=, TIMEOUT=, ASYNC= as the kernel writes it: passed on with an empty FIRMWARE" \
	"$T/hpd.err" || fail "no line for the empty uevent file: $(cat "$T/hpd.err")"
[ "$(grep -c 'its uevent file is not' "$T/hpd.err")" = 2 ] || fail "want two such lines: $(cat "$T/hpd.err")"
