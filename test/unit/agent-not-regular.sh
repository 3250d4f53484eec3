# SPDX-License-Identifier: MIT
# A directory, FIFO or dangling symlink where the firmware should be is
# skipped, like the kernel does, and the search goes on; when nothing else
# matches, the request is cancelled, and fwloadctl explain shows each one.
# Nothing opens the FIFO (that would hang; kernel_env has a timeout).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
name=odd.bin
mkdir -p "$R/lib/firmware/updates/6.12.0-test/$name" "$R/lib/firmware/6.12.0-test"
mkfifo "$R/lib/firmware/updates/$name"
ln -s /nonexistent/odd.bin "$R/lib/firmware/6.12.0-test/$name"
mkfw "$R/lib/firmware/$name" "the regular one"

request "$name"
run agent firmware
status_is 0
file_is "$REQ/loading" 10
file_is "$REQ/data" "the regular one"

rm "$R/lib/firmware/$name"
ln -s updates "$R/lib/firmware/$name"  # a symlink to a directory
request "$name"
run agent firmware
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
log_has "fwload: cancelled $name for $TF/$name; not found in $R /lib/firmware/updates/6.12.0-test:/lib/firmware/updates:/lib/firmware/6.12.0-test:/lib/firmware"
# The event path spends one stat() on each candidate; fwloadctl explain
# says what each one is.
needs fwloadctl
run ctl explain "$name"
status_is 1
cat >"$T/want" <<END
search:   $R/lib/firmware/updates/6.12.0-test/$name: a directory, skipped
search:   $R/lib/firmware/updates/$name: not a regular file, skipped
search:   $R/lib/firmware/6.12.0-test/$name: dangling symlink, skipped
search:   $R/lib/firmware/$name: a directory, skipped
decision: not found; the request would be cancelled
END
grep -e '^search:' -e '^decision:' "$T/stdout" | diff "$T/want" - || fail "fwloadctl explain"

# A FIFO as the only candidate: cancelled, no hang.
rm -r "$R/lib/firmware"
mkdir -p "$R/lib/firmware"
mkfifo "$R/lib/firmware/$name"
rm -f "$LOGF"
request "$name"
run agent firmware
status_is 1
file_is "$REQ/loading" -1
log_matches "fwload: cancelled $(ere "$name") for .*; not found in .*"
