# fwload -m LIST: a cancel (-c) adds "NAME<TAB>DEVPATH" to LIST once; a load
# removes every line for NAME and keeps the others. Concurrent updates lose
# nothing (the directory is locked, the file replaced whole).
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
stderr_is "fwload: d.bin: missing list: cannot lock $T/nodir: No such file or directory (errno 2)"
request d.bin
run clean "$FWLOAD" -s "$SYS" -n d.bin -m "$T/nodir/missing" "$E_DEVPATH" "$T/img"
status_is 0
stderr_is ""
run clean "$FWLOAD" -s "$SYS" -m relative -c "$E_DEVPATH"
status_is 100

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
