# SPDX-License-Identifier: MIT
# A message that root sends to the kernel's own uevent socket (port 0) is
# re-broadcast by the kernel to group 1 from port 0 (Linux 4.18 and later,
# uevent_net_rcv()), with the sender's credentials: hotplugd drops it, as
# only kernel uevents carry credential pid 0. A forged firmware event for a
# real pending request runs nothing and leaves the request untouched; a
# listener that believed port 0 alone would run PROGRAM for it. In a
# network namespace of its own (unshare -n, as root): no other listener,
# and the re-broadcast stays in that namespace.
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
request x.bin
run "$NLSEND" -k "add@$E_DEVPATH" ACTION=add "DEVPATH=$E_DEVPATH" SUBSYSTEM=firmware FIRMWARE=x.bin TIMEOUT=60 ASYNC=0
status_is 0
wait_for "grep -q '^hotplugd: dropped a message not from the kernel' '$T/hpd.err'" \
	"hotplugd did not report the re-broadcast message: $(cat "$T/hpd.err")"
sleep 0.2
hpd_stop TERM
grep -Eq '^hotplugd: dropped a message not from the kernel: port 0, group 1, pid [1-9][0-9]*, uid 0$' "$T/hpd.err" ||
	fail "the re-broadcast message: $(cat "$T/hpd.err")"
[ "$(runs)" = 0 ] || fail "a re-broadcast event ran PROGRAM: $(cat "$T"/runs/*)"
untouched
