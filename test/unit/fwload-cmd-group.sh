# SPDX-License-Identifier: MIT
# COMMAND and everything it starts are one unit. fwload starts COMMAND in a
# session (and process group) of its own, ends the whole group when
# COMMAND exits, and when the load ends first (past DEADLINE, on a signal
# to fwload, on a failed write to data) sends it SIGTERM, gives it a second,
# then ends the group; COMMAND dies with fwload (SIGKILL). fwload-keep, in
# front of a run= program (as the agent puts it), ends what left the group
# for a session of its own too (it is their subreaper), when the program
# exits, when told (SIGTERM), and when fwload dies. Here the program starts
# three children (sleep: in its group, in a session of its own, and
# orphaned at once) and stalls; the request ends in -1 (or 0 for the exit)
# and, 1 s after fwload returns, no process of the program is left. The
# same through fwload-runas (a run= user= rule's chain), and behind
# fwload-sha256 (a manifest's).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-keep

runas_user
mkimage "$T/img" 5000
# The program: its pid and its children's in $T/o/pids (a unit: the
# children must be started before the program stalls): a sleep in its
# group, a sleep in a session of its own (setsid), and one whose parent
# exited at once (a daemon's double fork); then 5000 bytes (for the failed
# write), then it stalls, or exits at once with "exit". ($T/o: its to
# write, whoever it runs as.)
cat >"$T/prog" <<END
#!/bin/sh
sleep 4321 >/dev/null &
s=\$!
if [ -e "$T/escape" ]; then
	setsid sh -c 'echo \$\$ >"\$1"; exec sleep 4323' sh "$T/o/esc" </dev/null >/dev/null 2>&1 &
	(setsid sh -c 'echo \$\$ >"\$1"; exec sleep 4324' sh "$T/o/orphan" </dev/null >/dev/null 2>&1 &)
else
	echo >"$T/o/esc" && echo >"$T/o/orphan"
fi
i=0
until [ -s "$T/o/esc" ] && [ -s "$T/o/orphan" ]; do
	i=\$((i + 1))
	[ \$i -lt 1000 ] || exit 99
	sleep 0.01
done
echo "\$\$ \$s \$(cat "$T/o/esc" "$T/o/orphan")" >"$T/o/pids.tmp" && mv "$T/o/pids.tmp" "$T/o/pids"
rm -f "$T/o/esc" "$T/o/orphan"
cat "$T/img"
[ "\${1-}" = exit ] && exit 0
sleep 4322
END
{ mkdir "$T/o" && chmod 1777 "$T/o" && chmod 755 "$T/prog" && chmod 644 "$T/img"; } || fail "cannot set up $T"
KEEP=$LIBEXEC/fwload-keep
# Under qemu-user (the cross layer) fwload-keep cannot be a subreaper (qemu
# passes PR_SET_CHILD_SUBREAPER on as EINVAL): the two that leave the
# group are started on a real kernel only.
[ -n "${TEST_QEMU-}" ] || : >"$T/escape"

# gone: the processes in $T/o/pids (each checked by its command line, never
# by its number alone) are all gone (or zombies) within the hang guard.
gone() {
	read -r _pids <"$T/o/pids" || fail "the program wrote no pids"
	_i=0
	while :; do
		_left=''
		for _pid in $_pids; do
			_st=$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$_pid/stat" 2>/dev/null)
			[ -z "$_st" ] || [ "$_st" = Z ] && continue
			tr '\0' ' ' <"/proc/$_pid/cmdline" 2>/dev/null | grep -Eq "$T/prog|sleep 432" &&
				_left="$_left $_pid ($(tr '\0' ' ' <"/proc/$_pid/cmdline"))"
		done
		[ -n "$_left" ] || break
		_i=$((_i + 1))
		[ "$_i" -le $((GUARD * 10)) ] || fail "$1: left running $GUARD s after fwload:$_left"
		sleep 0.1
	done
	rm -f "$T/o/pids"
}

# DEADLINE (-T 2): -1 at the deadline, the whole group ended.
request x.bin
run clean "$FWLOAD" -s "$SYS" -T 2 -n x.bin "$E_DEVPATH" - "$KEEP" "$T/prog" </dev/null
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: deadline of 2 s passed reading standard input via $KEEP; request aborted"
gone "past DEADLINE"

# A signal to fwload: SIGTERM once the program has started its child.
request x.bin
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" - "$KEEP" "$T/prog" </dev/null >"$T/stdout" 2>"$T/stderr" &
pid=$!
until_true "the program to start its child" test -s "$T/o/pids"
bg_pid "$pid"
kill -TERM "$bgpid"
wait "$pid"
st=$?
status_is 3
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: stopped by signal 15; request aborted"
gone "after SIGTERM to fwload"

# fwload killed (SIGKILL to it, as to its job's process group: an OOM kill,
# kill -9 -PGID) once the program has started its child: fwload-keep gets
# fwload's death as SIGTERM and ends it all. Also as fwload-runas runs the
# program (fwload-keep stays root, in front of it).
for via in "" "$LIBEXEC/fwload-runas $RUNAS_ID:$RUNAS_ID"; do
	request x.bin
	# shellcheck disable=SC2086 # $via: a program and its argument, or nothing
	env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" - "$KEEP" $via "$T/prog" </dev/null >"$T/stdout" 2>"$T/stderr" &
	pid=$!
	until_true "the program to start its child" test -s "$T/o/pids"
	bg_pid "$pid"
	kill -KILL "$bgpid"
	wait "$pid"
	file_is "$REQ/loading" 1 "loading (fwload killed mid-load: nothing more written)"
	gone "after SIGKILL to fwload${via:+ (through fwload-runas)}"
done

# A failed write to data (EIO once 1000 bytes went in).
request x.bin
fault_run FAULT_EIO_AT=1000 -- -s "$SYS" -n x.bin "$E_DEVPATH" - "$KEEP" "$T/prog" </dev/null
status_is 2
file_is "$REQ/loading" 1-1
stderr_matches "fwload: x\.bin: cannot write $(ere "$SYS$E_DEVPATH")/data: errno 5 \(EIO\); request aborted"
gone "after a failed write"

# An exit that leaves its children running: the image is committed, the
# children ended with it.
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" - "$KEEP" "$T/prog" exit </dev/null
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
gone "after the program's exit"

# fwload alone (no fwload-keep: a decompressor, a digest check): the
# group it made, at the deadline and at COMMAND's exit (nothing leaves the
# group here).
rm -f "$T/escape"
for how in "" exit; do
	request x.bin
	run clean "$FWLOAD" -s "$SYS" -T 2 -n x.bin "$E_DEVPATH" - "$T/prog" $how </dev/null
	if [ -n "$how" ]; then status_is 0; else status_is 2; fi
	gone "fwload alone (${how:-the deadline})"
done
[ -n "${TEST_QEMU-}" ] || : >"$T/escape"

# As a run= user= rule runs it: fwload-runas keeps the session fwload
# made (it has no terminal), so the group is the program's.
request x.bin
run clean "$FWLOAD" -s "$SYS" -T 2 -n x.bin "$E_DEVPATH" - "$KEEP" "$LIBEXEC/fwload-runas" "$RUNAS_ID:$RUNAS_ID" "$T/prog" </dev/null
status_is 2
file_is "$REQ/loading" 1-1
gone "past DEADLINE, as $RUNAS through fwload-runas"
# Behind fwload-sha256 (a manifest lists the name): one group still.
request x.bin
run clean "$FWLOAD" -s "$SYS" -T 2 -n x.bin "$E_DEVPATH" - "$LIBEXEC/fwload-sha256" \
	"$(sha256sum "$T/img" | cut -c1-64)" "$KEEP" "$LIBEXEC/fwload-runas" "$RUNAS_ID:$RUNAS_ID" "$T/prog" </dev/null
status_is 2
file_is "$REQ/loading" 1-1
gone "past DEADLINE, behind fwload-sha256 and fwload-runas"
