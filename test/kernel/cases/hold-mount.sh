# SPDX-License-Identifier: MIT
# HOLD=: a request held until a file system is mounted over a directory
# named in FIRMWARE_PATH (the late root, a firmware partition): served
# from it, exact.
. ../lib.sh
mkdir -p /run/late /run/staging
conf FIRMWARE_PATH=/run/fw:/run/late LOG=kmsg HOLD=30
echo 90 >/sys/class/firmware/timeout
name=fwload-test-hold-mount.bin
mount -t tmpfs tmpfs /run/staging || fail "cannot mount a tmpfs"
head -c 70000 /dev/urandom >/run/staging/$name
"$TRIGGER" "$TF/trigger_request" "$name" >/run/hold.out &
tp=$!
held_by "$name"
sleep 1
[ -e "/sys/class/firmware/$name/loading" ] || fail "the request is no longer pending"
t0=$(uptime_ms)
mount -o bind /run/staging /run/late || fail "cannot bind-mount over /run/late"
wait "$tp"
t1=$(uptime_ms)
read -r err ms </run/hold.out
umount /run/late
cmp /run/staging/$name /dev/test_firmware || { umount /run/staging; fail "the driver got a different image (errno $err)"; }
umount /run/staging
[ "$err" = 0 ] || fail "the held request ended with errno $err after $ms ms"
echo "ok: served $((t1 - t0)) ms after the mount over /run/late"
