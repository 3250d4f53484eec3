# SPDX-License-Identifier: MIT
# EINTR storms (every 2nd or 3rd call on data fails with EINTR, with or
# without short writes; every 2nd read of a stream too) are retried: the
# image arrives whole and is committed, on every copy path.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/big" 1048677
mkimage "$T/mid" 100003

loads "$T/big" file FAULT_EINTR=2 FAULT_SHORT=4096
stat_is sendfile 513   # 257 that moved data, 256 EINTR between them
loads "$T/mid" file FAULT_EINTR=3 FAULT_SHORT=7
stat_ge sendfile 21430
loads "$T/big" file FAULT_EINTR=2 FAULT_SHORT=65536
stat_is sendfile 33
loads "$T/big" file FAULT_NO_SENDFILE=1 FAULT_EINTR=2 FAULT_SHORT=4096
stat_ge write 513
loads "$T/big" file FAULT_NO_SENDFILE=1 FAULT_EINTR=3
stat_ge write 25
loads "$T/big" pipe FAULT_EINTR=2 FAULT_SHORT=4096
stat_ge splice 513
loads "$T/mid" stdin FAULT_EINTR=3 FAULT_SHORT=7
stat_ge write 21430
loads "$T/big" pipe FAULT_NO_SPLICE=1 FAULT_IMAGE=- FAULT_READ_EINTR=2 FAULT_EINTR=3 FAULT_SHORT=4096
stat_ge write 257
