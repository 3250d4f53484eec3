# SPDX-License-Identifier: MIT
# request_firmware_nowait() (ASYNC=1) is served like a sync request; a
# missing name fails at once (test_firmware reports async failure as ENOMEM).
. ../lib.sh
mkimage fwload-test-async.bin 100000
request fwload-test-async.bin trigger_async_request
request_fails fwload-test-async-missing.bin 12 trigger_async_request
kmsg 'fwload: cancelled fwload-test-async-missing.bin for .*; not found in '
