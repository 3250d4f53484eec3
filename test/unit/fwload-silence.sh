# SPDX-License-Identifier: MIT
# The silence limit (-t) counts only the image stream: a COMMAND that talks
# on stderr but sends no image is silent, and after the end of its image
# (stdout closed) a COMMAND that keeps running gets the same limit to exit,
# not the deadline (-T). Both end in -1, status 2, "nothing for N s".
# (Before, stderr reset the limit and a closed stdout waited for -T: the
# request was held past the kernel's timeout.) The -T here is 10 s, the
# limit 1 s; the times are only a generous guard.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkimage "$T/img" 1000
for how in stderr closed; do
	# shellcheck disable=SC2016 # COMMAND's own script
	case $how in
	stderr) script='while :; do echo chatter >&2; sleep 0.2; done' ;;
	closed) script='cat; exec >&-; exec sleep 30' ;;
	esac
	request x.bin
	t0=$(date +%s)
	run clean "$FWLOAD" -s "$SYS" -k "$T/lock" -l none -t 1 -T 10 "$E_DEVPATH" "$T/img" \
		/bin/sh -c "$script"
	t1=$(date +%s)
	status_is 2
	file_is "$REQ/loading" 1-1 "loading ($how)"
	grep -q "^fwload: x\\.bin: nothing for 1 s from $(ere "$T/img") via /bin/sh; request aborted\$" \
		"$T/stderr" || fail "$how: $(cat "$T/stderr")"
	[ $((t1 - t0)) -lt 8 ] || fail "$how: $((t1 - t0)) s, the limit is 1 s"
done

# Without -t the limit is the request's TIMEOUT from the environment (the
# event's, which the agent passes on; over a day is a day): 1 s here.
request x.bin
run clean TIMEOUT=1 "$FWLOAD" -e -s "$SYS" -k "$T/lock" -l none -T 10 "$E_DEVPATH" "$T/img" \
	/bin/sh -c 'exec sleep 30'
status_is 2
grep -q "^fwload: x\\.bin: nothing for 1 s from $(ere "$T/img") via /bin/sh; request aborted\$" \
	"$T/stderr" || fail "TIMEOUT=1: $(cat "$T/stderr")"
