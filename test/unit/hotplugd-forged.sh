# SPDX-License-Identifier: MIT
# Messages sent from user space straight to hotplugd's port id (unicast) are
# dropped (their port is not 0, and they come to no group), whoever sends
# them: root, or a user with CAP_NET_ADMIN (uid not 0, as a network daemon
# running as its own user).
# Without CAP_NET_ADMIN the kernel refuses to send at all (EPERM). A forged
# event for a real pending request changes nothing.
# In a network namespace of its own where unshare(1) can make one (root):
# no other listener, and the port ids are ours alone.
if [ -z "${HPD_NETNS:-}" ] && unshare -n true 2>/dev/null; then
	# shellcheck disable=SC2086 # TEST_SH is a command line
	HPD_NETNS=1 exec unshare -n $TEST_SH "$0"
fi
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"
[ -x "$NLSEND" ] || fail "$NLSEND is missing: make check-fast builds it"

standin 0
mkdir -p "$SYS/class/firmware"
hpd_start -x "$T/prog" -S "$SYS"
# Our port id is hotplugd's pid (the kernel gives a process's first netlink
# socket its pid); check it in /proc/net/netlink (protocol 15, group 1).
awk -v p="$HPID" '$2 == 15 && $3 == p && $4 == "00000001" { found = 1 } END { exit !found }' /proc/net/netlink ||
	fail "no uevent socket with port id $HPID: $(cat /proc/net/netlink)"

echo "network namespace: $([ -n "${HPD_NETNS:-}" ] && echo "a new one (unshare -n)" || echo "the host's")"
request x.bin
fw="add@$E_DEVPATH ACTION=add DEVPATH=$E_DEVPATH SUBSYSTEM=firmware FIRMWARE=x.bin TIMEOUT=60 ASYNC=0 SEQNUM=1"
# shellcheck disable=SC2086 # the message's strings
run "$NLSEND" "$HPID" $fw
status_is 0
# shellcheck disable=SC2086
run "$NLSEND" -u 65534 "$HPID" $fw
status_is 0
# shellcheck disable=SC2086
run "$NLSEND" -U 65534 "$HPID" $fw
status_is 1
grep -q 'Operation not permitted' "$T/stderr" || fail "without CAP_NET_ADMIN: $(cat "$T/stderr")"
wait_for "[ \$(grep -c '^hotplugd: dropped a message not from the kernel' '$T/hpd.err') -ge 2 ]" \
	"hotplugd did not report 2 dropped messages: $(cat "$T/hpd.err")"
sleep 0.2
hpd_stop TERM
grep -Eq "^hotplugd: dropped a message not from the kernel: port [1-9][0-9]*, group 0, pid [1-9][0-9]*, uid 0\$" "$T/hpd.err" ||
	fail "root's message: $(cat "$T/hpd.err")"
grep -Eq "^hotplugd: dropped a message not from the kernel: port [1-9][0-9]*, group 0, pid [1-9][0-9]*, uid 65534\$" "$T/hpd.err" ||
	fail "uid 65534's message: $(cat "$T/hpd.err")"
[ "$(runs)" = 0 ] || fail "a forged event ran PROGRAM: $(cat "$T"/runs/*)"
untouched
