# SPDX-License-Identifier: MIT
# fwload -m LIST: a cancel (-c) adds "NAME<TAB>DEVPATH" to LIST once; a load
# removes every line for NAME and keeps the others. Concurrent updates lose
# nothing (LIST.lock is locked, the file replaced whole); a lock held
# elsewhere delays at most about 2 s. The list is never read or written
# through a link, and stays under 64 KiB.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

L=$T/run/missing
mkdir -p "$T/run"
tab=$(printf '\t')
mkimage "$T/img" 1000

request a.bin
run clean "$FWLOAD" -s "$SYS" -n a.bin -m "$L" -c "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
file_is "$L" "a.bin$tab$E_DEVPATH
"
request a.bin
run clean "$FWLOAD" -s "$SYS" -n a.bin -m "$L" -c "$E_DEVPATH"
status_is 1
file_is "$L" "a.bin$tab$E_DEVPATH
" "the list after the same request again"
request b.bin
run clean "$FWLOAD" -s "$SYS" -n b.bin -m "$L" -c "$E_DEVPATH"
request a.bin /devices/other/a.bin
run clean "$FWLOAD" -s "$SYS" -n a.bin -m "$L" -c "$E_DEVPATH"
file_is "$L" "a.bin$tab$TF/a.bin
b.bin$tab$TF/b.bin
a.bin$tab/devices/other/a.bin
"

# a.bin is there now: both its lines go.
request a.bin
run clean "$FWLOAD" -s "$SYS" -n a.bin -m "$L" "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10
file_is "$L" "b.bin$tab$TF/b.bin
"
# A load of something never missing changes nothing.
before=$(ls -i "$L")
request c.bin
run clean "$FWLOAD" -s "$SYS" -n c.bin -m "$L" "$E_DEVPATH" "$T/img"
status_is 0
assert_eq "the list's inode" "$before" "$(ls -i "$L")"

# No such directory: the request is still answered, and the failure said.
request d.bin
run clean "$FWLOAD" -s "$SYS" -n d.bin -m "$T/nodir/missing" -c "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
stderr_is "fwload: d.bin: missing list: cannot open $T/nodir/missing.lock: No such file or directory (errno 2); list not updated"
request d.bin
run clean "$FWLOAD" -s "$SYS" -n d.bin -m "$T/nodir/missing" "$E_DEVPATH" "$T/img"
status_is 0
stderr_is ""
run clean "$FWLOAD" -s "$SYS" -m relative -c "$E_DEVPATH"
status_is 100

# Not one line: a control byte in the name or DEVPATH is never listed.
cp "$L" "$T/before"
request e.bin "$TF/e
bin"
run clean "$FWLOAD" -s "$SYS" -n e.bin -m "$L" -c "$E_DEVPATH"
status_is 1
cmp -s "$T/before" "$L" || fail "the list after a DEVPATH with a newline: $(show "$L")"

# A link left at LIST.new is replaced, not followed.
ln -s "$T/victim" "$L.new"
request f.bin
run clean "$FWLOAD" -s "$SYS" -n f.bin -m "$L" -c "$E_DEVPATH"
status_is 1
no_file "$T/victim" "a file written through the link at $L.new"
grep -qx "f.bin$tab$E_DEVPATH" "$L" || fail "f.bin not listed: $(cat "$L")"

# Someone else holds the lock: given up after about 2 s, the request
# answered all the same.
# shellcheck disable=SC2016 # the locker's own script
sh -c 'exec 9<"$0" && flock 9 && exec sleep 10' "$L.lock" &
locker=$!
i=0
while flock -n "$L.lock" true; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "the locker did not take the lock"
	sleep 0.01
done
request g.bin
run clean "$FWLOAD" -s "$SYS" -n g.bin -m "$L" -c "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
stderr_is "fwload: g.bin: missing list: cannot lock $L.lock: Resource temporarily unavailable (errno 11); list not updated"
kill "$locker"
wait "$locker"

# A link at the list's own path: refused, its target untouched.
mv "$L" "$T/saved"
printf 'secret\n' >"$T/target"
chmod 600 "$T/target"
ln -s "$T/target" "$L"
request h.bin
run clean "$FWLOAD" -s "$SYS" -n h.bin -m "$L" -c "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
stderr_is "fwload: h.bin: missing list: cannot open $L: Too many levels of symbolic links (errno 40)"
file_is "$T/target" "secret
"
[ -L "$L" ] || fail "the link at $L was replaced"
rm "$L"
mv "$T/saved" "$L"

# Full: a list near 64 KiB takes no more lines, and still loses lines.
cp "$L" "$T/saved"
i=0
while [ $i -lt 900 ]; do
	printf 'filler-%04d.bin\t%s/filler-%04d.bin\n' $i "$TF" $i
	i=$((i + 1))
done >>"$L"
size=$(wc -c <"$L")
printf 'pad.bin\t/%s\n' "$(head -c $((65500 - size - 10)) /dev/zero | tr '\0' x)" >>"$L"
assert_eq "the list's size" 65500 "$(wc -c <"$L")"
request big.bin
run clean "$FWLOAD" -s "$SYS" -n big.bin -m "$L" -c "$E_DEVPATH"
status_is 1
file_is "$REQ/loading" -1
stderr_is "fwload: big.bin: missing list: full (64 KiB): $L; request not listed"
request filler-0000.bin
run clean "$FWLOAD" -s "$SYS" -n filler-0000.bin -m "$L" "$E_DEVPATH" "$T/img"
status_is 0
! grep -q '^filler-0000.bin	' "$L" || fail "filler-0000.bin still listed after it loaded"
mv "$T/saved" "$L"

# 40 at once: all 40 listed.
rm -f "$L"
i=0
while [ $i -lt 40 ]; do
	request "n$i.bin"
	clean "$FWLOAD" -s "$SYS" -n "n$i.bin" -m "$L" -c "$E_DEVPATH" &
	i=$((i + 1))
done
wait
assert_eq "lines after 40 concurrent cancels" 40 "$(wc -l <"$L")"
assert_eq "distinct names" 40 "$(cut -f1 "$L" | sort -u | wc -l)"
no_file "$L.new"
