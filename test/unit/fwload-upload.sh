# SPDX-License-Identifier: MIT
# A firmware-upload device (CONFIG_FW_UPLOAD) has loading and data too, and
# its add uevent looks like a request's; writing to it starts a flash. Its
# directory has remaining_size: fwload leaves it alone, exit 6, nothing
# written, not even a cancel.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 1000
request upload.bin /devices/virtual/firmware/upload.bin
for f in remaining_size status error cancel; do
	printf 'x\n' >"$REQ/$f"
done
for args in "$E_DEVPATH $T/img" "-c $E_DEVPATH"; do
	# shellcheck disable=SC2086 # ARG...
	run clean "$FWLOAD" -s "$SYS" -l "$LOGF" $args
	status_is 6
	untouched
	stderr_is "fwload: upload.bin: $E_DEVPATH is a firmware-upload device, not a request; left alone"
	no_file "$LOGF" "a log line for a device that is not a request"
done

# -U (fwloadctl upload): the kind check the other way round. An idle upload
# device gets "1", the image, "0" (handed over), the line says so; the
# bytes written so far on stdout (a regular file: its one line rewritten).
rm -rf "$SYS$TF"
request upload.bin /devices/virtual/firmware/upload.bin
echo 0 >"$REQ/remaining_size"
echo idle >"$REQ/status"
run clean "$FWLOAD" -U -s "$SYS" -l "$LOGF" -t 0 "$E_DEVPATH" "$T/img"
status_is 0
file_is "$REQ/loading" 10 "loading (-U)"
data_is "$T/img"
stdout_is ""
stderr_is ""
log_matches "fwload: handed over upload\\.bin \\(1000 bytes, [0-9]+ ms\\) from $(ere "$T/img") to $(ere "$E_DEVPATH")"
# Its key (its lock file's name), as fwload-pending -u -k gives it.
run clean "$LIBEXEC/fwload-pending" -s "$SYS" -u -k "$E_DEVPATH"
status_is 0
grep -Eqx '[0-9]+-[0-9]+' "$T/stdout" || fail "fwload-pending -u -k: $(cat "$T/stdout")"
# Not idle: busy (5), nothing written; so is an image being written by
# another program (loading reads 1).
for how in transferring loading; do
	: >"$REQ/loading"
	: >"$REQ/data"
	echo idle >"$REQ/status"
	if [ "$how" = loading ]; then
		echo 1 >"$REQ/loading"
	else
		echo "$how" >"$REQ/status"
	fi
	run clean "$FWLOAD" -U -s "$SYS" -l "$LOGF" -t 0 "$E_DEVPATH" "$T/img"
	status_is 5
	file_is "$REQ/data" "" "data (-U, $how)"
	case $how in
	loading)
		file_is "$REQ/loading" "1
" "loading (-U, an image being written)"
		stderr_is "fwload: upload.bin: an image is being written to $E_DEVPATH (its loading: 1); left alone"
		;;
	*)
		file_is "$REQ/loading" "" "loading (-U, $how)"
		stderr_is "fwload: upload.bin: $E_DEVPATH is not idle (its status: transferring); left alone"
		;;
	esac
done
echo idle >"$REQ/status"
# One uploader a device: the request's lock. A writes from a slow pipe;
# B finds the lock held (5) and writes nothing.
: >"$REQ/loading"
: >"$REQ/data"
{
	head -c 500 "$T/img"
	until [ -e "$T/go" ]; do sleep 0.05; done
	tail -c +501 "$T/img"
} | clean "$FWLOAD" -U -s "$SYS" -l "$LOGF" -t 0 "$E_DEVPATH" - >"$T/a.out" 2>&1 &
a=$!
data_ge() { [ "$(wc -c <"$REQ/data")" -ge "$1" ]; }
until_true "A's first 500 bytes ($T/a.out)" data_ge 500
run clean "$FWLOAD" -U -s "$SYS" -l "$LOGF" -t 0 "$E_DEVPATH" "$T/img"
status_is 5
stderr_is "fwload: upload.bin: another upload holds $E_DEVPATH; left alone"
: >"$T/go"
wait "$a"
st=$?
status_is 0
file_is "$REQ/loading" 10 "loading (A, the one uploader)"
data_is "$T/img"
# A MiB a sendfile() (one call without -U): what fwloadctl draws is
# fwload's wchar in /proc/PID/io, which grows a MiB at a time. Nothing on
# standard output.
mkimage "$T/big" 3145728
: >"$REQ/loading"
: >"$REQ/data"
# shellcheck disable=SC2086 # PRELOAD and DYN: words (test/lib.sh)
clean $PRELOAD FAULT_STATS="$T/stats" $DYN -U -s "$SYS" -l "$LOGF" -t 0 \
	"$E_DEVPATH" "$T/big" 2>"$T/stderr" >"$T/lines"
file_is "$REQ/loading" 10 "loading (-U, 3 MiB)"
data_is "$T/big"
stat_is sendfile 3
file_is "$T/lines" "" "-U's standard output"
# The device gone mid-copy (ENODEV) is said as such.
mkimage "$T/img8k" 8192
: >"$REQ/loading"
: >"$REQ/data"
# shellcheck disable=SC2086 # PRELOAD and DYN: words (test/lib.sh)
run clean $PRELOAD FAULT_ENODEV_AT=4096 $DYN -U -s "$SYS" -l none -t 0 "$E_DEVPATH" "$T/img8k"
status_is 111
grep -q "cannot write .*: errno [0-9]* (ENODEV); the upload is gone\$" "$T/stderr" ||
	fail "-U, the device gone: $(cat "$T/stderr")"
# A pending request is the agent's: -U leaves it alone (6), and
# fwload-pending -u -k says it is none (6).
request x.bin
run clean "$FWLOAD" -U -s "$SYS" -l "$LOGF" -t 0 "$E_DEVPATH" "$T/img"
status_is 6
untouched
run clean "$LIBEXEC/fwload-pending" -s "$SYS" -u -k "$E_DEVPATH"
status_is 6
untouched
run clean "$FWLOAD" -U -s "$SYS" -l "$LOGF" -t 0 "$E_DEVPATH" "$T/img"
stderr_is "fwload: x.bin: $E_DEVPATH is a pending request, not a firmware-upload device: the firmware agent answers it; left alone"
run clean "$FWLOAD" -U -s "$SYS" -c "$E_DEVPATH"
status_is 100
