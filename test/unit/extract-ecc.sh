# SPDX-License-Identifier: MIT
# fwload-extract and flash errors, through the fault injector (test/fault.c)
# in the dynamic test build; a regular file stands for /dev/mtd2.
# mtdchar hands user space the data of an uncorrectable read as if it were
# good (drivers/mtd/mtdchar.c: "Nand returns -EBADMSG on ECC errors, but it
# returns the data") and counts it in the partition's ECC statistics
# (ECCGETSTATS): a "failed" count that grew during the read is bad data
# (3), nothing written; a "corrected" count that grew (EUCLEAN, bitflips
# the ECC fixed) is fine: the exact bytes. A read that fails with EBADMSG
# (as UBI and block devices report it) is bad data too (3); any other read
# error is a system error (111). MAC address sources get the same checks.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=extract-lib
. "$REPO/test/unit/extract-lib"

board
slice "$ART" 20480 2116 >"$T/want"

# xrun FAULT=VALUE... -- ARG...: the dynamic build with the injector, the
# image being $ART, under `run`.
xrun() {
	_n=$#
	while [ "$_n" -gt 0 ]; do
		_a=$1
		shift
		if [ "$_a" = -- ]; then
			for _w in $EXDYN; do
				set -- "$@" "$_w"
			done
		else
			set -- "$@" "$_a"
		fi
		_n=$((_n - 1))
	done
	# shellcheck disable=SC2086 # empty, or one VAR=VALUE word
	run clean $PRELOAD FAULT_IMAGE="$ART" SYSFS="$SYS" DEVFS="$T/dev" "$@" </dev/null
}

# No fault: the statistics are not there (a regular file), the data is.
xrun -- mtd:art 0x5000 0x844
status_is 0
stderr_is ''
cmp -s "$T/want" "$T/stdout" || fail "no fault: the output differs"

# Corrected bitflips: fine.
xrun FAULT_ECC=corrected -- mtd:art 0x5000 0x844
status_is 0
stderr_is ''
cmp -s "$T/want" "$T/stdout" || fail "corrected bitflips: the output differs"

# An uncorrectable error during the read: 3, one line, nothing written.
xrun FAULT_ECC=failed -- mtd:art 0x5000 0x844
status_is 3
stdout_is ''
stderr_is "fwload-extract: mtd:art: uncorrectable ECC error (EBADMSG) reading $ART"
# ... while reading the MAC address from the same partition (the data
# comes from the u-boot-env partition, which has no fault).
xrun FAULT_IMAGE="$T/dev/mtd1" FAULT_ECC=failed -- mtd:art 0x5000 0x844 --mac-ascii mtd:u-boot-env,ethaddr \
	--ath10k-patch-mac
status_is 3
stdout_is ''
stderr_is "fwload-extract: mtd:u-boot-env: uncorrectable ECC error (EBADMSG) reading $T/dev/mtd1"
xrun FAULT_ECC=failed -- "$T/dev/mtd1" 0 16 --mac-binary mtd:art,0 --ath9k-patch-mac
status_is 3
stdout_is ''
stderr_is "fwload-extract: mtd:art: uncorrectable ECC error (EBADMSG) reading $ART"

# The same file named by its path: not an MTD character device (a regular
# file), so no statistics are asked for, and a FAULT_ECC does not apply.
xrun FAULT_ECC=failed -- "$ART" 0x5000 0x844
status_is 0
cmp -s "$T/want" "$T/stdout" || fail "by path: the output differs"

# A read that fails: EBADMSG is bad data, EIO a system error; both after
# 1000 bytes, nothing written.
xrun FAULT_IMAGE="$T/dev/ubi0_1" FAULT_READ_EIO_AT=1000 FAULT_READ_EBADMSG=1 -- ubi:caldata 0x5000 0x844
status_is 3
stdout_is ''
stderr_matches "fwload-extract: ubi:caldata: cannot read $(ere "$T/dev/ubi0_1"): errno [0-9]+ \\(EBADMSG\\)"
xrun FAULT_READ_EIO_AT=1000 -- mtd:art 0x5000 0x844
status_is 111
stdout_is ''
stderr_matches "fwload-extract: mtd:art: cannot read $(ere "$ART"): errno [0-9]+ \\(EIO\\)"
xrun FAULT_READ_EIO_AT=3 FAULT_READ_EBADMSG=1 -- mtd:u-boot-env 0 8 --mac-binary mtd:art,0 --ath9k-patch-mac
status_is 3
stdout_is ''
:
