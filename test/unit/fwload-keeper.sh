# SPDX-License-Identifier: MIT
# COMMAND's keeper (the copy of fwload that leads COMMAND's session and
# process group) killed while COMMAND runs: fwload ends COMMAND's group at
# once and aborts the load, its line naming the keeper; it does not wait
# for COMMAND's silence limit. Before, fwload took the keeper's death for
# COMMAND's and waited; COMMAND ran on after fwload exited.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

# A sleep of this case's own (cases run side by side): its command line
# says which.
secs=3456.$$
cat >"$T/prog" <<END
#!/bin/sh
printf 'the first bytes'
exec sleep $secs
END
chmod 755 "$T/prog"

# pid_of_sleep: $sp, the pid of "sleep $secs" (its command line), or empty.
pid_of_sleep() {
	sp=''
	for _c in /proc/[0-9]*/cmdline; do
		[ "$({ tr '\0' ' ' <"$_c"; } 2>/dev/null)" = "sleep $secs " ] || continue
		sp=${_c#/proc/}
		sp=${sp%/cmdline}
	done
	[ -n "$sp" ]
}

request x.bin
clean "$FWLOAD" -s "$SYS" -l "$LOGF" -t 60 -n x.bin "$E_DEVPATH" - "$T/prog" </dev/null >"$T/stdout" 2>"$T/stderr" &
fw=$!
until_true "COMMAND's sleep" pid_of_sleep
# Its parent is the keeper, a copy of fwload (under qemu-user: of qemu).
read -r _ _ _ keeper _ <"/proc/$sp/stat" || fail "no /proc/$sp/stat"
# shellcheck disable=SC3013 # -ef: every shell we test has it
[ "/proc/$keeper/exe" -ef "$FWBIN" ] || [ -n "${TEST_QEMU-}" ] ||
	fail "the sleep's parent $keeper is not fwload's keeper: $(readlink "/proc/$keeper/exe")"
kill -KILL "$keeper"
# fwload ends within seconds, not at the silence limit (60 s): a hang
# guard, the wait is for fwload itself.
fw_gone() { ! kill -0 "$fw" 2>/dev/null; }
until_true "fwload to end after its keeper was killed" fw_gone
wait "$fw"
st=$?
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: x\\.bin: the keeper of $(ere "$T/prog") was killed by signal 9 before it ended: its process group ended; request aborted"
# COMMAND's sleep ended with it (gone, or a zombie init has yet to reap).
i=0
while [ -r "/proc/$sp/stat" ] && [ "$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$sp/stat" 2>/dev/null)" != Z ] &&
	tr '\0' ' ' <"/proc/$sp/cmdline" 2>/dev/null | grep -qF "sleep $secs "; do
	i=$((i + 1))
	[ "$i" -le $((GUARD * 10)) ] || fail "COMMAND's sleep (pid $sp) still runs $GUARD s after fwload"
	sleep 0.1
done
