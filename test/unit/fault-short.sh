# SPDX-License-Identifier: MIT
# sysfs data takes at most a page per write(), and fwload must carry on
# after every short write, sendfile() or splice(): with each call cut to
# 4096, 7 or 1 bytes, the image arrives whole and is committed ("10").
# Every copy path: sendfile (a file), read/write (no sendfile, or a regular
# file on stdin), splice (a pipe on stdin).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/big" 1048677    # 1 MiB + 101
mkimage "$T/mid" 100003
mkimage "$T/small" 20011

loads "$T/big" file FAULT_SHORT=4096
stat_is sendfile 257
stat_is write 0
loads "$T/mid" file FAULT_SHORT=7
stat_is sendfile 14287
loads "$T/small" file FAULT_SHORT=1
stat_is sendfile 20011

loads "$T/big" file FAULT_NO_SENDFILE=1 FAULT_SHORT=4096
stat_is sendfile 1
stat_ge write 257
loads "$T/mid" file FAULT_NO_SENDFILE=1 FAULT_SHORT=7
stat_ge write 14287
loads "$T/small" file FAULT_NO_SENDFILE=1 FAULT_SHORT=1
stat_is write 20011

loads "$T/big" pipe FAULT_SHORT=4096
stat_ge splice 257
stat_is write 0
loads "$T/mid" pipe FAULT_SHORT=7
stat_ge splice 14287
loads "$T/small" pipe FAULT_SHORT=1
stat_ge splice 20011

loads "$T/big" stdin FAULT_SHORT=4096
stat_ge write 257
loads "$T/mid" stdin FAULT_SHORT=7
stat_ge write 14287
loads "$T/big" pipe FAULT_NO_SPLICE=1 FAULT_SHORT=4096
stat_ge write 257
loads "$T/small" pipe FAULT_NO_SPLICE=1 FAULT_SHORT=1
stat_ge write 20011
