# SPDX-License-Identifier: MIT
# fwloadctl rescan --watch SECONDS keeps looking once a second: a
# request that appears later (with no uevent) is served; SIGTERM ends the
# watch at once; a bad SECONDS is a usage error.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwloadctl

conf "LOG=$LOGF" "FIRMWARE_PATH=$T/fw"
mkimage "$T/fw/late.bin" 4000
mkdir -p "$SYS/class/firmware"
# fwload-pending, and a line in $T/looks after each look of the watch: the
# request is made once the watch has looked and found nothing.
own_libexec
rm "$LIBEXEC/fwload-pending"
cat >"$LIBEXEC/fwload-pending" <<END
#!/bin/sh
"$HELPERS/fwload-pending" "\$@"
st=\$?
echo >>"$T/looks"
exit \$st
END
chmod 755 "$LIBEXEC/fwload-pending"
# (100 looks: a watch that cannot end by itself while the case runs)
ctl rescan --watch 100 >"$T/watch.out" 2>&1 &
watch=$!
LIBEXEC=$HELPERS
until_true "the watch's first look" test -s "$T/looks"
pending late.bin
until_true "late.bin served by the watch" grep -qx 10 "$REQ/loading"
file_is "$REQ/loading" 10
data_is "$T/fw/late.bin"
# SIGTERM to fwloadctl itself (not to the shell that runs ctl in the
# background: mksh's waits on, and so does its fwloadctl).
bg_pid "$watch"
kill -TERM "$bgpid"
watch_gone() { ! kill -0 "$bgpid" 2>/dev/null; }
until_true "the watch's end on SIGTERM" watch_gone
wait "$watch"
grep -qx 'late.bin: 0' "$T/watch.out" || fail "watch said: $(cat "$T/watch.out")"

run ctl rescan --watch soon
status_is 100
