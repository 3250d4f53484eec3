# SPDX-License-Identifier: MIT
# HOLD=: a request whose image is not there yet is held, not cancelled: the
# driver waits while the agent (one shell and at most one child, its sleep)
# searches again; fwloadctl status lists it with its time left; a copy of
# the file into FIRMWARE_PATH is loaded, exact (the copy is loaded once it
# stops changing, not half). The time from the copy to the answer is
# printed (doc/performance.md collects it: timing is not asserted, beyond a
# 10 s hang guard).
. ../lib.sh
conf FIRMWARE_PATH=/run/fw LOG=kmsg HOLD=30
echo 90 >/sys/class/firmware/timeout
name=fwload-test-hold-copy.bin
head -c 300000 /dev/urandom >/run/hold-copy.src
"$TRIGGER" "$TF/trigger_request" "$name" >/run/hold.out &
tp=$!
held_by "$name"
kmsg "fwload: $name held for /devices/virtual/misc/test_firmware/$name: not found in .*; waiting up to [0-9]+ s for it \(HOLD=30\)"
hold_procs "$holder"
[ "$procs" -le 2 ] || fail "the hold is $procs processes (the agent and at most one sleep)"
echo "ok: held by pid $holder: $procs processes at most (the agent, and its sleep)"
[ -e "/sys/class/firmware/$name/loading" ] || fail "the request is no longer pending"
fwloadctl status >/run/status.out
grep -Eq "^  $name  /devices/virtual/misc/test_firmware/$name  age [0-9]+ s  held, [0-9]+ s left \(agent pid $holder\)\$" /run/status.out ||
	fail "status does not list it held: $(cat /run/status.out)"
echo "ok: fwloadctl status lists it: $(grep -F "  $name  " /run/status.out)"
t0=$(uptime_ms)
cp /run/hold-copy.src "$FW/$name"
wait "$tp"
t1=$(uptime_ms)
read -r err ms </run/hold.out
[ "$err" = 0 ] || fail "the held request ended with errno $err after $ms ms"
cmp "$FW/$name" /dev/test_firmware || fail "the driver got a different image"
[ $((t1 - t0)) -lt 10000 ] || fail "served $((t1 - t0)) ms after the copy"
echo "ok: served $((t1 - t0)) ms after the copy (the request waited $ms ms in all)"
[ ! -e "$rec" ] || fail "the hold record is still there"
