# SPDX-License-Identifier: MIT
# A log pipe nobody reads never stops hotplugd: with its standard error a
# full pipe, a line waits a second at most, and none while the pipe stays
# full (errors go to the kernel log meanwhile, -v's lines are dropped):
# every pending request is still served, SIGTERM still ends it (0), and
# once the pipe is read again, lines come through again. Before, hotplugd
# blocked in write() on its first line ("listening") and served nothing.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

standin 0
for i in 1 2 3 4 5 6; do
	pending "s$i.bin"
done
mkfifo "$T/log"
exec 9<>"$T/log"  # the pipe: held open, read by nobody
# pipe ACTION: fill it (to the last byte it takes), or drain it and print
# what it held; fd 9 is blocking again afterwards. python3 gets the pipe as
# its standard input (the same open file as fd 9, read-write): mksh opens
# exec's descriptors above 2 close-on-exec, so no program sees its fd 9.
pipe() {
	python3 -c 'import os, sys
os.set_blocking(0, False)
if sys.argv[1] == "fill":
    for n in 4096, 1:
        try:
            while True:
                os.write(0, b"x" * n)
        except BlockingIOError:
            pass
else:
    try:
        while True:
            sys.stdout.buffer.write(os.read(0, 65536).replace(b"x", b""))
    except BlockingIOError:
        pass
os.set_blocking(0, True)' "$1" <&9
}
pipe fill
"$HPD" -v -x "$T/prog" -S "$SYS" 2>&9 &
HPJOB=$!
bg_pid "$HPJOB"  # (yash: $! is a subshell's)
HPID=$bgpid
wait_for '[ "$(runs)" -ge 6 ]' "with its log pipe full, hotplugd served $(runs) of 6 pending requests" 20
alive "$HPID" || fail "hotplugd is gone"
pipe drain >/dev/null  # read again: the next line goes through
kill -TERM "$HPID"
i=0
while alive "$HPID"; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "hotplugd still runs 10 s after SIGTERM"
	sleep 0.1
done
wait "$HPJOB"
st=$?
HPID=
status_is 0
pipe drain >"$T/late"
exec 9>&-
grep -qx 'hotplugd: stopped by signal 15' "$T/late" || fail "no line after the pipe was read again: $(cat "$T/late")"
