# SPDX-License-Identifier: MIT
# COMMAND gets fds 0-2 only, default signal dispositions and an empty
# signal mask, whatever fwload's caller left it; and an inherited
# SIGCHLD=SIG_IGN (bash's trap '' CHLD, some init systems) does not make
# COMMAND's exit status vanish (before: every decompressed load aborted).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

# sig_clean FILE: FILE (SigBlk and SigIgn from /proc/PID/status) shows no
# standard signal (1-31) blocked or ignored. (32 and 33 belong to glibc,
# which refuses to change them; a caller such as make may leave them
# ignored.)
sig_clean() {
	[ "$(grep -c '^Sig' "$1")" = 2 ] || fail "no signal state in $1: $(show "$1")"
	while read -r what mask; do
		[ $((0x$mask & 0x7fffffff)) = 0 ] ||
			fail "the program's $what has standard signals: $mask"
	done <"$1"
}

mkimage "$T/img" 300001
/usr/bin/zstd -q -c "$T/img" >"$T/img.zst" || fail "zstd"

# What the program inherits: fds 0-2 only (fd 5 open in fwload's caller),
# default dispositions (SIGPIPE, SIGINT ignored by the caller) and an empty
# signal mask (bash's trap '' and a blocked USR1 don't reach it).
request x.bin
# shellcheck disable=SC2016,SC2094 # the program's own script; fd 5 only reads
run clean "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" /bin/sh -c \
	'ls /proc/$$/fd/5 /proc/$$/fd/7 >"$0.fds" 2>&1; grep -E "^Sig(Blk|Ign):" /proc/self/status >"$0.sig"; cat' "$T/probe" \
	5<"$T/img" 7>>"$T/log7"
status_is 0
if [ ! -s "$T/probe.fds" ] || grep -q '^/proc' "$T/probe.fds"; then
	fail "the program inherited fds beyond 2: $(cat "$T/probe.fds")"
fi
sig_clean "$T/probe.sig"

# An inherited SIGCHLD=SIG_IGN (bash's trap '' CHLD, some init systems)
# would make the exit status vanish (ECHILD): fwload resets it.
request x.bin
run clean python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
os.execv(sys.argv[1], sys.argv[1:])' "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img.zst" /usr/bin/zstd -dcq
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
request x.bin
# shellcheck disable=SC2016 # the program's own script
run clean python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
os.execv(sys.argv[1], sys.argv[1:])' "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" "$T/img" /bin/sh -c \
	'grep -E "^Sig(Blk|Ign):" /proc/self/status >"$0.sig2"; cat' "$T/probe"
status_is 0
sig_clean "$T/probe.sig2"
