# SPDX-License-Identifier: MIT
# The answer comes first, and no log sink can hold or redirect it:
#  - a FIFO as the log file (no reader: an open would block for ever) is not
#    opened for writing until after "-1", and then O_NONBLOCK: no hang;
#  - a FIFO with a reader is not written to (not a regular file);
#  - a symbolic link at the log path is not followed;
#  - a full AF_UNIX datagram socket at /dev/log (a private mount namespace)
#    does not block -l syslog;
#  - control bytes and backslashes in names, paths and notes are written
#    as \xNN: a name cannot forge a second log line.
# Before: failures were logged first, and a FIFO held the request at "1"
# (or before it) for ever; names went into the log raw.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 1000
mkfifo "$T/fifo"
request x.bin
run timeout -s KILL 10 env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -l "$T/fifo" "$E_DEVPATH" "$T/missing"
status_is 2
file_is "$REQ/loading" -1
stderr_is "fwload: x.bin: cannot open $T/missing: errno 2 (ENOENT); request aborted"

# A reader on the FIFO: still not a regular file, nothing goes there.
exec 5<>"$T/fifo"
request x.bin
run timeout -s KILL 10 env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -l "$T/fifo" "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10
printf 'end\n' >"$T/fifo"
read -r first <&5
exec 5<&-
assert_eq "the first line in the FIFO" end "$first"

# A link at the log path: not followed, its target untouched.
printf 'secret\n' >"$T/target"
ln -s "$T/target" "$T/loglink"
request x.bin
run clean "$FWLOAD" -s "$SYS" -l "$T/loglink" "$E_DEVPATH" "$T/img"
status_is 0
file_is "$T/target" "secret
"

# Escapes: a newline, a tab, ESC and a backslash in the name and the note.
request x.bin
rm -f "$LOGF"
# shellcheck disable=SC1003 # a backslash at the end of the name, for printf
run clean "$FWLOAD" -s "$SYS" -l "$LOGF" -n "$(printf 'a\nfwload: loaded evil\\')" \
	-w "$(printf 'note\twith\033[1m')" "$E_DEVPATH" "$T/img"
status_is 0
[ "$(wc -l <"$LOGF")" -eq 1 ] || fail "want one log line: $(cat "$LOGF")"
log_matches "fwload: loaded a\\\\x0afwload: loaded evil\\\\x5c \\(1000 bytes, [0-9]+ ms\\) from $(ere "$T/img") for $(ere "$E_DEVPATH"); note\\\\x09with\\\\x1b\\[1m"

# fwload-log: one log line, no request, the same escapes.
rm -f "$LOGF"
run clean "$LIBEXEC/fwload-log" -l "$LOGF" "$(printf 'bad line 3\nin fwload.conf')"
status_is 0
file_is "$LOGF" "fwload: bad line 3\\x0ain fwload.conf
"
run clean "$LIBEXEC/fwload-log" -l none "nothing"
status_is 0

# A full datagram queue at /dev/log: fwload answers and exits at once.
if ! command -v python3 >/dev/null || ! unshare -m true 2>/dev/null; then
	echo "SKIP (syslog part): needs python3 and unshare -m (root)"
	exit 0
fi
request x.bin
# shellcheck disable=SC2016 # the namespace's own script
run timeout "$GUARD" unshare -m sh -c '
	mount -t tmpfs none /dev || exit 99
	: >/dev/null
	python3 -c "
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(\"/dev/log\")
c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
c.setblocking(False)
try:
    while True:
        c.sendto(b\"x\" * 200, \"/dev/log\")
except BlockingIOError:
    pass
open(sys.argv[1], \"w\").close()
time.sleep(30)
" "$0.full" &
	while [ ! -e "$0.full" ]; do sleep 0.05; done
	env -i "$@"
	st=$?
	kill $!
	exit $st' "$T/sock" "$FWLOAD" -s "$SYS" -l syslog "$E_DEVPATH" "$T/missing"
status_is 2
file_is "$REQ/loading" -1

# A message longer than a line holds, to a file: cut with "...", and its
# newline kept, so the next record starts on a line of its own.
long=$(printf '%03000d' 0)
rm -f "$LOGF"
"$LIBEXEC/fwload-log" -l "$LOGF" "$long" 2>/dev/null
"$LIBEXEC/fwload-log" -l "$LOGF" "next" 2>/dev/null
assert_eq "records in the log file" 2 "$(wc -l <"$LOGF" | tr -d ' ')"
assert_eq "the cut record's end" "0..." "$(head -n 1 "$LOGF" | tail -c 5)"
assert_eq "the next record" "fwload: next" "$(tail -n 1 "$LOGF")"

# A log path that is a hard link to another file is not written to (it
# could lead anywhere on the same file system).
: >"$T/target"
ln "$T/target" "$T/hardlink"
"$LIBEXEC/fwload-log" -l "$T/hardlink" "through a hard link" 2>/dev/null
file_is "$T/target" "" "the hard link's target"
