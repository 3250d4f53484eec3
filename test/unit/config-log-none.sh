# SPDX-License-Identifier: MIT
# LOG=none: nothing is logged anywhere (failures still go to stderr).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
conf "LOG=none" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/firmware/x.bin" "firmware"
# top: the names at the top of $T, but for run's stdout and stderr.
top() {
	for f in "$T"/* "$T"/.[!.]*; do
		[ -e "$f" ] && echo "${f##*/}"
	done | grep -vx -e stdout -e stderr -e run  # run: the config cache
}
top >"$T/before"

request x.bin
run agent firmware
status_is 0
file_is "$REQ/loading" 10
stderr_is ''

request missing.bin
run agent firmware
status_is 1
file_is "$REQ/loading" -1
grep -q "^fwload: cancelled missing.bin for $TF/missing.bin; not found in " "$T/stderr" || fail "no message on stderr"
top | diff "$T/before" - || fail "a file appeared in $T"

# The agent gave fwload "-l none" as well: switch LOG to a file and the
# same success is logged, so the silence above was LOG=none's doing.
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
request x.bin
run agent firmware
status_is 0
log_matches "$(loaded_line x.bin "$R/lib/firmware/x.bin")"
