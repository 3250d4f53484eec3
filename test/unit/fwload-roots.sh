# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# -r DIR: the file that was opened must lie inside one DIR. Links are
# followed (linux-firmware uses them), but a link that ends outside every
# DIR is refused before "1". Where openat2 cannot decide (an absolute link,
# one that leads out; no openat2 under qemu-user) the name is walked one
# component at a time, each opened without following it and a link read
# from the link opened: a link swapped in during the walk (FAULT_SWAP)
# changes nothing, the path checked is the very file opened. Any number of
# -r works (the agent passes one per searched directory; before, 65 was a
# usage error).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/fw
mkimage "$R/good.bin" 3000
mkimage "$T/secret" 2000
mkdir -p "$R/sub"
ln -s ../good.bin "$R/sub/rel.bin"
ln -s "$T/secret" "$R/evil.bin"

request x.bin
run clean "$FWLOAD" -s "$SYS" -r "$R" "$E_DEVPATH" "$R/sub/rel.bin"
status_is 0
data_is "$R/good.bin"

request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$R/evil.bin"
status_is 2
file_is "$REQ/loading" -1
stderr_is "fwload: x.bin: $R/evil.bin resolves to $T/secret, outside the firmware directories; request aborted"

# The swap: the name is a link to the secret when the walk opens it, a
# link to good.bin right after. The link opened is the one read: the
# secret, refused, and named. (The fallback before, realpath() and a
# comparison, said "resolves to good.bin, not the file opened".)
ln -s "$R/good.bin" "$R/good-link"
request x.bin
fault_run FAULT_IMAGE="$R/evil.bin" FAULT_SWAP="$R/good-link" -- -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$R/evil.bin"
[ "$(readlink "$R/evil.bin")" = "$R/good.bin" ] || fail "the link was not swapped"
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stderr_is "fwload: x.bin: $R/evil.bin resolves to $T/secret, outside the firmware directories; request aborted"

# 200 directories, the right one last.
set --
i=0
while [ $i -lt 200 ]; do
	set -- "$@" -r "$T/nowhere$i"
	i=$((i + 1))
done
request x.bin
run clean "$FWLOAD" -s "$SYS" "$@" -r "$R" "$E_DEVPATH" "$R/good.bin"
status_is 0
data_is "$R/good.bin"
request x.bin
run clean "$FWLOAD" -s "$SYS" "$@" "$E_DEVPATH" "$R/good.bin"
status_is 2

# A relative link that leads out (openat2 from the root refuses it; the
# fallback names where it leads).
ln -s ../secret "$R/esc.bin"
request x.bin
run clean "$FWLOAD" -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$R/esc.bin"
status_is 2
file_is "$REQ/data" ""
stderr_is "fwload: x.bin: $R/esc.bin resolves to $T/secret, outside the firmware directories; request aborted"

# The race after the check: the name leads to good.bin, and right after
# the walk opened good.bin, a link to the secret takes good.bin's name
# (FAULT_SWAP). What was checked is what was opened: good.bin's bytes are
# loaded, never the secret's. (The fallback before resolved the name, then
# looked at the result again by name.)
rm -f "$R/evil.bin" "$R/good-link"
ln -s "$R/good.bin" "$R/evil.bin"
ln -s "$T/secret" "$T/secret-link"
cp "$R/good.bin" "$T/good.copy"
request x.bin
fault_run FAULT_IMAGE="$R/good.bin" FAULT_SWAP="$T/secret-link" -- -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$R/evil.bin"
[ "$(readlink "$R/good.bin")" = "$T/secret" ] || fail "good.bin was not swapped for a link"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/good.copy"

# A name that goes on past a regular file ("FILE/", "FILE/.") is no file:
# ENOTDIR, as open(2) and openat2 say, with openat2 and where the name is
# walked (FAULT_NO_OPENAT2: a kernel before 5.6, qemu-user). Before, the
# walk took both for FILE.
mkimage "$R/plain.bin" 1000
ln -s ../plain.bin "$R/sub/plain-rel.bin"
for name in "$R/plain.bin/" "$R/plain.bin/." "$R/sub/plain-rel.bin/" "$R/plain.bin//"; do
	for how in openat2 walked; do
		request x.bin
		if [ "$how" = openat2 ]; then
			run clean $DYN -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$name"
		else
			fault_run FAULT_NO_OPENAT2=1 -- -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$name"
		fi
		status_is 2
		file_is "$REQ/loading" -1 "loading ($name, $how)"
		file_is "$REQ/data" "" "data ($name, $how)"
		grep -q "cannot open $(ere "$name"): errno [0-9]* (ENOTDIR); request aborted\$" "$T/stderr" ||
			fail "$name ($how): $(cat "$T/stderr")"
	done
done
