# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $PRELOAD and $DYN are word lists (see lib.sh)
# -r DIR: the file that was opened must lie inside one DIR. Links are
# followed (linux-firmware uses them), but a link that ends outside every
# DIR is refused before "1"; and a link swapped for a good one between the
# open and the check (FAULT_SWAP) is caught: the opened file is compared
# with the resolved name by device and inode. Any number of -r works (the
# agent passes one per searched directory; before, 65 was a usage error).
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

# The swap: the name points at the secret when opened, at good.bin when
# resolved.
ln -s "$R/good.bin" "$R/good-link"
request x.bin
fault_run FAULT_IMAGE="$R/evil.bin" FAULT_SWAP="$R/good-link" -- -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$R/evil.bin"
[ "$(readlink "$R/evil.bin")" = "$R/good.bin" ] || fail "the link was not swapped"
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stderr_is "fwload: x.bin: $R/evil.bin resolves to $R/good.bin, not the file opened; request aborted"

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

# The race after realpath(): the name leads to the secret when opened, to
# good.bin when resolved (FAULT_SWAP), and good.bin itself becomes a link to
# the secret right after (FAULT_AFTER_REALPATH). The resolved path is looked
# at without following it (lstat): a link there is not the file opened.
# (Before, stat() followed it to the secret, the very file opened, and the
# secret was committed.)
rm -f "$R/evil.bin" "$R/good-link"
ln -s "$T/secret" "$R/evil.bin"
ln -s "$R/good.bin" "$R/good-link"
ln -s "$T/secret" "$T/secret-link"
cp "$R/good.bin" "$T/good.copy"
request x.bin
fault_run FAULT_IMAGE="$R/evil.bin" FAULT_SWAP="$R/good-link" \
	FAULT_AFTER_REALPATH="$T/secret-link:$R/good.bin" -- -s "$SYS" -n x.bin -r "$R" "$E_DEVPATH" "$R/evil.bin"
[ "$(readlink "$R/good.bin")" = "$T/secret" ] || fail "good.bin was not swapped for a link"
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
stderr_is "fwload: x.bin: $R/evil.bin resolves to $R/good.bin, not the file opened; request aborted"
