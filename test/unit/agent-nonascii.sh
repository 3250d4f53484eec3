# SPDX-License-Identifier: MIT
# A firmware name with bytes over 127 (UTF-8, or not: the kernel takes the
# driver's bytes as they are) is answered under every shell: loaded where
# the shell can hold the name, and where it cannot (yash in the C locale
# drops any variable with such a byte, FIRMWARE and DEVPATH both) cancelled
# through fwload, which gets both from its own environment, never left to
# the kernel's timeout.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
utf8=$(printf 'caf\303\251.bin')
latin1=$(printf 'caf\351.bin')
mkimage "$R/lib/firmware/$utf8" 3000
mkimage "$R/lib/firmware/$latin1" 4000

tried=
for sh in dash "busybox sh" mksh yash "bash --posix"; do
	command -v "${sh%% *}" >/dev/null 2>&1 || continue
	tried="$tried ${sh%% *}"
	for name in "$utf8" "$latin1"; do
		request "$name"
		rm -f "$LOGF"
		# shellcheck disable=SC2086 # $sh is a command line
		run kernel_env timeout "$GUARD" $sh "$REPO/firmware.agent" firmware
		[ "$st" != 124 ] || fail "$sh, $name: no answer within $GUARD s"
		case $sh:$(cat "$REQ/loading") in
		*:10) data_is "$R/lib/firmware/$name" ;;
		yash:-1)
			[ "$st" = 1 ] || fail "$sh, $name: status $st, want 1"
			LC_ALL=C grep -qx "fwload: cancelled caf.*\\.bin for $TF/caf.*\\.bin; a name this shell cannot hold" "$LOGF" ||
				fail "$sh, $name: log: $(cat "$LOGF")"
			;;
		*) fail "$sh, $name: status $st, loading '$(cat "$REQ/loading")'; stderr: $(cat "$T/stderr")" ;;
		esac
	done
done
case $tried in *dash*busybox*) ;; *) fail "dash and busybox must be there: tried$tried" ;; esac
echo "shells tried:$tried"
