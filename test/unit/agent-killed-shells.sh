# SPDX-License-Identifier: MIT
# A killed fwload (SIGKILL: no -1 of its own) leaves the request open: the
# agent cancels it and exits 3, in every POSIX shell, whatever the shell
# makes of the signal in $? (128+n in dash, busybox, mksh and bash; 384+n in
# yash; 256+n in ksh93), never that number itself. One that could not run
# exits 111. The shells that are installed are all tried.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"
FWLOAD=$T/fake-fwload
tried=
for sh in dash "busybox sh" mksh yash "bash --posix" ksh93; do
	command -v "${sh%% *}" >/dev/null 2>&1 || continue
	tried="$tried ${sh%% *}"
	for how in 'kill -KILL $$:3' 'kill -TERM $$:3' 'exit 127:111'; do
		request x.bin
		printf '#!/bin/sh\ncase " $* " in *" -c "*) exec "%s" "$@" ;; esac\nprintf 1 >"%s"\n%s\n' \
			"$FWBIN" "$REQ/loading" "${how%:*}" >"$FWLOAD"
		chmod 755 "$FWLOAD"
		# shellcheck disable=SC2086 # $sh is a command line
		run kernel_env $sh "$REPO/firmware.agent" firmware
		[ "$st" = "${how##*:}" ] || fail "$sh, fwload '${how%:*}': exit status $st, want ${how##*:}"
		file_is "$REQ/loading" -1 "loading ($sh, fwload '${how%:*}')"
	done
done
case $tried in *dash*busybox*) ;; *) fail "dash and busybox must be there: tried$tried" ;; esac
echo "shells tried:$tried"
