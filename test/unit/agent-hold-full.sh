# SPDX-License-Identifier: MIT
# A hold whose record cannot be written (the run directory a full tmpfs:
# no free block, then no free inode either): the request is still held and
# served when its file appears; no empty or partial record is left behind
# (there was an empty held/KEY.PID); and fwloadctl status says the request
# is held, its record missing, naming the agent (it holds the request's
# loading file open), not that it is merely pending. (Mounts: root only.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

[ "$(id -u)" = 0 ] || fail "this case mounts file systems: run it as root"
FULL=$T/full
mkdir -p "$FULL"
trap 'umount "$FULL" 2>/dev/null; rm -rf "$T"' EXIT
R=$T/root
D=$R/lib/firmware
mkdir -p "$D"
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" HOLD=30

# status_held NAME: fwloadctl status lists NAME's request as held, its
# record missing, by the agent $pid.
status_held() {
	run ctl status
	status_is 0
	grep -Eqx "  $1  $(ere "$E_DEVPATH")  age [0-9]+ s  held, its record missing \(agent pid $pid; $(ere "$RUN/held") could not be written\)" "$T/stdout" ||
		fail "status, $2: $(cat "$T/stdout")"
}

for full in blocks inodes; do
	if [ "$full" = blocks ]; then
		mount -t tmpfs -o size=4k,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
		head -c 1048576 /dev/zero >"$FULL/filler" 2>/dev/null
		printf x 2>/dev/null >"$FULL/more" && [ -s "$FULL/more" ] && fail "the tiny tmpfs is not full"
		rm -f "$FULL/more"
	else
		mount -t tmpfs -o size=64k,nr_inodes=8,mode=700 fwload-full "$FULL" || fail "cannot mount a tiny tmpfs"
		mkdir "$FULL/held"
		i=0
		while command : 2>/dev/null >"$FULL/f$i"; do
			i=$((i + 1))
			[ "$i" -lt 100 ] || fail "the tmpfs has more than 8 inodes"
		done
	fi
	RUN=$FULL
	pending "late-$full.bin"
	(
		agent firmware >"$T/bg.out" 2>&1
		echo $? >"$T/bg.st"
	) &
	until_true "the hold's line" grep -qs "late-$full\.bin held for" "$LOGF"
	[ "$(find "$FULL" ! -type d ! -name filler ! -name 'f[0-9]*')" = "" ] ||
		fail "no free $full: left in the run directory: $(find "$FULL" -ls)"
	# The agent: it has the request's loading file open on fd 9, and its
	# parent has not (its children, a sleep or fwload, have it too).
	pid=
	for f in /proc/[0-9]*/fd/9; do
		# shellcheck disable=SC3013 # -ef: every shell we test has it
		[ "$f" -ef "$REQ/loading" ] || continue
		p=${f#/proc/}
		p=${p%%/*}
		read -r _ _ _ pp _ 2>/dev/null <"/proc/$p/stat" || continue
		# shellcheck disable=SC3013
		[ "/proc/$pp/fd/9" -ef "$REQ/loading" ] || pid=$p
	done
	[ -n "$pid" ] || fail "no process holds $REQ/loading open"
	status_held "late-$full\\.bin" "no free $full"
	file_is "$REQ/loading" "" "the held request (no free $full)"
	mkfw "$D/late-$full.bin" "late, $full"
	wait
	read -r st <"$T/bg.st"
	[ "$st" = 0 ] || fail "no free $full: the held agent ended with $st: $(cat "$T/bg.out" "$LOGF")"
	file_is "$REQ/data" "late, $full"
	[ "$(find "$FULL" ! -type d ! -name filler ! -name 'f[0-9]*')" = "" ] ||
		fail "no free $full: left after the load: $(find "$FULL" -ls)"
	umount "$FULL" || fail "cannot unmount the tiny tmpfs"
done
