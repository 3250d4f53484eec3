# SPDX-License-Identifier: MIT
# fwloadctl settle ends holding: a held request whose file is there now is
# loaded, one whose file is not is cancelled at once (ENOENT, one line),
# and the held agent leaves; after it, a name not found is cancelled at
# once, until setup.
. ../lib.sh
trap 'rm -f /run/fwload/settled' EXIT
conf FIRMWARE_PATH=/run/fw LOG=kmsg HOLD=60
echo 90 >/sys/class/firmware/timeout
name=fwload-test-settle.bin
"$TRIGGER" "$TF/trigger_request" "$name" >/run/hold.out &
tp=$!
held_by "$name"
first=$holder
fwloadctl settle >/run/settle.out
st=$?
wait "$tp"
read -r err ms </run/hold.out
[ "$st" = 0 ] || fail "settle exited $st: $(cat /run/settle.out)"
[ "$err" = 2 ] || fail "the held request ended with errno $err after $ms ms, want 2 (cancelled by settle)"
grep -qx "$name: 1" /run/settle.out || fail "settle said: $(cat /run/settle.out)"
kmsg "fwload: cancelled $name for .*\(HOLD=60, but fwloadctl settle has run\)"
[ "$(dmesg | grep -c "fwload: cancelled $name ")" = 1 ] || fail "not one line: $(dmesg | grep "$name")"
i=0
while kill -0 "$first" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || fail "the held agent (pid $first) is still running 5 s after settle"
	sleep 0.1
done
echo "ok: settle cancelled the held request (errno 2 after $ms ms); its agent left"

# After settle: cancelled at once.
request_fails fwload-test-settled.bin 2
s=${ms%%.*}
[ "$s" -lt 3000 ] || fail "after settle, a missing name took $ms ms"

# A held request whose file is there when settle runs: loaded.
rm /run/fwload/settled
name=fwload-test-settle-found.bin
"$TRIGGER" "$TF/trigger_request" "$name" >/run/hold.out &
tp=$!
held_by "$name"
head -c 5000 /dev/urandom >/run/settle.src
mv /run/settle.src "$FW/$name"
fwloadctl settle >/run/settle.out
st=$?
wait "$tp"
read -r err ms </run/hold.out
[ "$st" = 0 ] || fail "settle exited $st: $(cat /run/settle.out)"
[ "$err" = 0 ] || fail "errno $err after $ms ms"
cmp "$FW/$name" /dev/test_firmware || fail "the driver got a different image"
echo "ok: a held request whose file was there at settle was loaded"
