# SPDX-License-Identifier: MIT
# fwload-extract in fwload's COMMAND slot on the fake sysfs (FILE "-"):
# the calibration data loads byte for byte, patched; a short extract, a
# source that is not there, bad data and an uncorrectable ECC error each end
# in "-1" with fwload-extract's line in fwload's, nothing committed. Chained
# behind fwload-sha256 (a filter runs the rest of its command line and
# checks its output), the digest of the patched data loads, another aborts,
# and a failing extract aborts whatever the digest.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-sha256
# shellcheck source=extract-lib
. "$REPO/test/unit/extract-lib"

board
SHA=$LIBEXEC/fwload-sha256

# fw ARG...: fwload answering x.bin with fwload-extract ARG..., under `run`.
fw() {
	request x.bin
	run clean SYSFS="$SYS" DEVFS="$T/dev" "$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" - "$@" \
		</dev/null
}

# The OpenWrt ath10k example: the patched data, as extract-mac.sh checks it.
"$EXTRACT" "$ART" 0x5000 0x844 --mac-binary "$ART,0x0" --macaddr-add 1 --ath10k-patch-mac >"$T/cal" ||
	fail "cannot make the expected data"
sum=$(sha256sum <"$T/cal")
assert_eq "the ath10k example's digest" 56c6ba24eaff6c7e3c176e696fe1e75d70ad8d9e0aeb0ee5a9dfc9c36099437f "${sum%% *}"

fw "$EXTRACT" mtd:art 0x5000 0x844 --mac-binary mtd:art,0x0 --macaddr-add 1 --ath10k-patch-mac
status_is 0
stderr_is ''
file_is "$REQ/loading" 10
data_is "$T/cal"
slice "$ART" 4096 4096 >"$T/want"
fw "$EXTRACT" part:0:ART 4096 4096
status_is 0
file_is "$REQ/loading" 10
data_is "$T/want"

# Failures: aborted (2), "1-1" in loading: the request started and was
# ended with -1, nothing committed; fwload says why, with the first line
# fwload-extract wrote.
fw "$EXTRACT" mtd:art 0xf800 0x844
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: $EXTRACT failed (exit status 2) on standard input: fwload-extract: mtd:art: 2048 bytes at offset 63488 of $ART, want 2116; request aborted"
fw "$EXTRACT" mtd:nvram 0 16
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: $EXTRACT failed (exit status 1) on standard input: fwload-extract: mtd:nvram: no MTD partition of that name in $SYS/class/mtd; request aborted"
fw "$EXTRACT" mtd:art 0x5000 0x844 --valid 4409
status_is 2
file_is "$REQ/loading" 1-1
fw "$EXTRACT" mtd:art 0x5000 0x844 --mac-ascii mtd:u-boot-env,wlanaddr --ath10k-patch-mac
status_is 2
file_is "$REQ/loading" 1-1
fw "$EXTRACT" mtd:art 0x5000 0x844 --ath10k-patch-mac
status_is 2
file_is "$REQ/loading" 1-1
# An uncorrectable ECC error (the dynamic build with the fault injector,
# chained as fwload runs any COMMAND).
if [ -z "${TEST_QEMU:-}" ]; then
	request x.bin
	run clean SYSFS="$SYS" DEVFS="$T/dev" LD_PRELOAD="$FAULT" FAULT_IMAGE="$ART" FAULT_ECC=failed \
		"$FWLOAD" -s "$SYS" -n x.bin "$E_DEVPATH" - "$EXDYN" mtd:art 0x5000 0x844 </dev/null
	status_is 2
	file_is "$REQ/loading" 1-1
	grep -q 'fwload-extract: mtd:art: uncorrectable ECC error (EBADMSG) reading' "$T/stderr" ||
		fail "no ECC line: $(cat "$T/stderr")"
fi

# Behind fwload-sha256: the digest of what the driver gets (the patched data).
fw "$SHA" "${sum%% *}" "$EXTRACT" mtd:art 0x5000 0x844 --mac-binary mtd:art,0x0 --macaddr-add 1 --ath10k-patch-mac
status_is 0
file_is "$REQ/loading" 10
data_is "$T/cal"
unpatched=$(slice "$ART" 20480 2116 | sha256sum)
fw "$SHA" "${unpatched%% *}" "$EXTRACT" mtd:art 0x5000 0x844 --mac-binary mtd:art,0x0 --macaddr-add 1 \
	--ath10k-patch-mac
status_is 2
file_is "$REQ/loading" 1-1
grep -q "fwload-sha256: SHA-256 mismatch: got ${sum%% *}, want ${unpatched%% *}" "$T/stderr" ||
	fail "no mismatch line: $(cat "$T/stderr")"
# A failing extract behind the filter: aborted even though the digest is
# that of the bytes that came out (none); fwload's line carries the first
# line of the chain's standard error, the extract's own reason.
empty=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
fw "$SHA" "$empty" "$EXTRACT" mtd:art 0xf800 0x844
status_is 2
file_is "$REQ/loading" 1-1
stderr_is "fwload: x.bin: $SHA failed (exit status 2) on standard input: fwload-extract: mtd:art: 2048 bytes at offset 63488 of $ART, want 2116; request aborted"
:
