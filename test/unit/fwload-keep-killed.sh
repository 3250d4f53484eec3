# SPDX-License-Identifier: MIT
# fwload-keep (COMMAND, in front of a run= program, the leader of the
# session and process group fwload made) killed while its program runs:
# fwload sees COMMAND's end, ends its group at once and aborts the load, its
# line naming fwload-keep and the signal; it does not wait for the silence
# limit, and the program does not outlive it.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-keep

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
KEEP=$LIBEXEC/fwload-keep
clean "$FWLOAD" -s "$SYS" -l "$LOGF" -t 60 -n x.bin "$E_DEVPATH" - "$KEEP" "$T/prog" </dev/null >"$T/stdout" 2>"$T/stderr" &
fw=$!
until_true "COMMAND's sleep" pid_of_sleep
# Its parent is fwload-keep (under qemu-user: qemu running it).
read -r _ _ _ keeper _ <"/proc/$sp/stat" || fail "no /proc/$sp/stat"
tr '\0' ' ' <"/proc/$keeper/cmdline" | grep -qF "fwload-keep $T/prog" ||
	fail "the sleep's parent $keeper is not fwload-keep: $(tr '\0' ' ' <"/proc/$keeper/cmdline")"
kill -KILL "$keeper"
# fwload ends within seconds, not at the silence limit (60 s): a hang
# guard, the wait is for fwload itself.
fw_gone() { ! kill -0 "$fw" 2>/dev/null; }
until_true "fwload to end after fwload-keep was killed" fw_gone
wait "$fw"
st=$?
status_is 2
file_is "$REQ/loading" 1-1
log_matches "fwload: x\\.bin: $(ere "$KEEP") killed by signal 9 on standard input; request aborted"
# COMMAND's sleep ended with it (gone, or a zombie init has yet to reap).
i=0
while [ -r "/proc/$sp/stat" ] && [ "$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$sp/stat" 2>/dev/null)" != Z ] &&
	tr '\0' ' ' <"/proc/$sp/cmdline" 2>/dev/null | grep -qF "sleep $secs "; do
	i=$((i + 1))
	[ "$i" -le $((GUARD * 10)) ] || fail "COMMAND's sleep (pid $sp) still runs $GUARD s after fwload"
	sleep 0.1
done
