# SPDX-License-Identifier: MIT
# Nobody but root decides a load. An unprivileged process (nobody, through
# setpriv) that holds every lock it can take on the request (flock LOCK_EX,
# fcntl and OFD read locks on loading and data, flock on the request
# directory) and keeps them open, started before the event, changes
# nothing: the exact image is committed, and -c still writes -1. The fake
# sysfs files are root's, 0644, as the kernel makes them. (Before, fwload
# took flock on loading: the holder made every load and cancel exit 5,
# nothing written, the driver left to its timeout.) And the lock directory
# itself: made 0700 when missing; one that is not root's alone, or that
# cannot be made, is not used: the request is answered anyway and the
# outcome line says so.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

LOCKHOLD=${TEST_LOCKHOLD:-$REPO/test/kernel/lockhold}
[ -x "$LOCKHOLD" ] || fail "no $LOCKHOLD: make test/kernel/lockhold"
# util-linux's setpriv by its path (busybox's applet lacks --reuid)
for SETPRIV in /usr/bin/setpriv /bin/setpriv ''; do
	[ -x "$SETPRIV" ] && break
done
[ -n "$SETPRIV" ] || fail "no setpriv (util-linux)"
chmod 755 "$T"  # nobody must reach the fake sysfs
mkimage "$T/img" 100000

# attack: nobody holds every lock on the request $REQ, in the background.
attack() {
	: >"$T/held"  # the last attacker's "ready" must not count (the new one truncates it later)
	"$SETPRIV" --reuid=nobody --regid=nogroup --clear-groups \
		"$LOCKHOLD" "$REQ/loading" "$REQ/data" "$REQ" >"$T/held" 2>&1 &
	attacker=$!
	until_true "the attacker's start ($T/held)" grep -q '^ready' "$T/held"
	for l in "flock $REQ/loading" "fcntl $REQ/loading" "ofd $REQ/loading" "flock $REQ/data" \
		"fcntl $REQ/data" "ofd $REQ/data" "flock $REQ"; do
		grep -Fqx "$l ok" "$T/held" || fail "the attacker does not hold $l: $(cat "$T/held")"
	done
	grep -q '^ready uid 65534$' "$T/held" || fail "the attacker is not nobody: $(cat "$T/held")"
}
stop_attack() {
	kill "$attacker"
	wait "$attacker" 2>/dev/null
}

for req in loading data; do
	request x.bin
	[ -n "$(find "$REQ/$req" -user root -perm 0644)" ] || fail "$req is not root's 0644"
done
attack
run clean "$FWLOAD" -s "$SYS" -k "$T/lock" -l "$LOGF" "$E_DEVPATH" "$T/img"
status_is 0
stderr_is ''
file_is "$REQ/loading" 10
data_is "$T/img"
log_matches "$(loaded_line x.bin "$T/img")"
stop_attack

request y.bin
attack
run clean "$FWLOAD" -s "$SYS" -k "$T/lock" -l "$LOGF" -c "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
stop_attack

# The lock directory: made 0700 (its parent too), and empty after the
# answer (the lock file goes with the lock).
request z.bin
run clean "$FWLOAD" -s "$SYS" -k "$T/run/lk" -l "$LOGF" "$E_DEVPATH" "$T/img"
status_is 0
stderr_is ''
for d in "$T/run/lk" "$T/run"; do
	[ -n "$(find "$d" -prune -type d -user root -perm 0700)" ] || fail "$d is not root's 0700"
done
assert_eq "lock files left" "" "$(ls -A "$T/run/lk")"

# Not root's alone, or not to be made: answered anyway, and said.
mkdir -p "$T/nobodys" "$T/groups"
chown nobody "$T/nobodys"
chmod 770 "$T/groups"
: >"$T/file"
for dir in "$T/nobodys" "$T/groups" "$T/file/lock"; do
	request w.bin
	rm -f "$LOGF"
	run clean "$FWLOAD" -s "$SYS" -k "$dir" -l "$LOGF" "$E_DEVPATH" "$T/img"
	status_is 0
	file_is "$REQ/loading" 10
	data_is "$T/img"
	log_matches "fwload: loaded w\\.bin \\(100000 bytes, [0-9]+ ms\\) from .*; answered without a lock \\(.* $(ere "$dir")\\)"
	assert_eq "files made in $dir" "" "$(ls -A "$dir" 2>/dev/null)"
done
