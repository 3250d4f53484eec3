# SPDX-License-Identifier: MIT
# No loading file: fwload waits up to -t (else TIMEOUT, else 60) seconds for
# it to appear, then exits 111 without writing anything.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 100
D=$TF/late.bin

run clean "$FWLOAD" -s "$SYS" -t 1 "$D" "$T/img"
status_is 111
stderr_is "fwload: late.bin: no request: cannot open $SYS$D/loading: errno 2 (ENOENT)"
no_file "$SYS$D" "fwload created the request directory"

# TIMEOUT from the environment sets the wait (60 s would meet the timeout
# guard of clean and fail differently).
run clean TIMEOUT=1 "$FWLOAD" -s "$SYS" "$D" "$T/img"
status_is 111
run clean "$FWLOAD" -s "$SYS" -t 0 "$D" "$T/img"
status_is 111

# A request that appears while fwload waits is served.
env -i PATH="$KPATH" "$FWLOAD" -s "$SYS" -t 20 "$D" "$T/img" >"$T/stdout" 2>"$T/stderr" &
pid=$!
sleep 0.3
mkdir -p "$SYS$D"
: >"$SYS$D/data"
: >"$SYS$D/loading.new"
mv "$SYS$D/loading.new" "$SYS$D/loading"
wait "$pid"
st=$?
status_is 0
file_is "$SYS$D/loading" 10
cmp -s "$T/img" "$SYS$D/data" || fail "data differs"
