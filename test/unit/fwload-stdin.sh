# SPDX-License-Identifier: MIT
# fwload DEVPATH - takes the image from standard input: a pipe (splice), a
# regular file (read/write), both loaded whole. An empty stream cannot be
# delivered: the load is aborted after the start ("1-1"), exit 2.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 300001

request x.bin
head -c 300001 "$T/img" | clean "$FWLOAD" -s "$SYS" -l "$LOGF" "$E_DEVPATH" - >"$T/stdout" 2>"$T/stderr"
st=$?
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"
log_matches "$(loaded_line x.bin "$T/img" | sed 's|from .* for|from standard input for|')"

request x.bin
run clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - <"$T/img"
status_is 0
file_is "$REQ/loading" 10
data_is "$T/img"

# A regular file read from the middle: the rest of it.
request x.bin
{
	head -c 1000 >/dev/null
	clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - >"$T/stdout" 2>"$T/stderr"
	st=$?
} <"$T/img"
status_is 0
tail -c +1001 "$T/img" >"$T/rest"
data_is "$T/rest"

for how in pipe file null; do
	: >"$T/empty"
	request x.bin
	case $how in
	pipe) printf '' | clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - >"$T/stdout" 2>"$T/stderr" ;;
	file) clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - <"$T/empty" >"$T/stdout" 2>"$T/stderr" ;;
	null) clean "$FWLOAD" -s "$SYS" "$E_DEVPATH" - </dev/null >"$T/stdout" 2>"$T/stderr" ;;
	esac
	st=$?
	status_is 2
	file_is "$REQ/loading" 1-1 "loading for an empty $how"
	file_is "$REQ/data" "" "data for an empty $how"
	stderr_is "fwload: x.bin: empty image from standard input; request aborted"
done
