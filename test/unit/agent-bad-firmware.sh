# SPDX-License-Identifier: MIT
# FIRMWARE that is not a safe relative name is refused, and the request
# cancelled at once (by fwload -c): loading gets -1, exit 4, one log line
# saying why, names escaped by fwload. Each
# bad name has a file that a careless agent would find and load.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
FW=$R/lib/firmware
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R"
mkfw "$R/lib/escaped.bin" "outside the firmware directory"   # ../escaped.bin
mkdir -p "$FW/a"
mkfw "$FW/b.bin" "reached through a/../b.bin"
mkfw "$FW/etc/passwd" "reached through //etc/passwd"
nl='
'
tab='	'
esc=$(printf '\033')
soh=$(printf '\001')
del=$(printf '\177')
for c in "$nl" "$tab" "$esc" "$soh" "$del"; do
	mkfw "$FW/x${c}y.bin" "a name with a control character"
	mkfw "$FW/x.bin$c" "a name ending in a control character"
done

c255=$(head -c 255 /dev/zero | tr '\0' a)
c256=${c255}a
c240=$(head -c 240 /dev/zero | tr '\0' b)
long=$c240  # 17 components of 240 and 16 slashes: 4096 bytes
i=1
while [ "$i" -lt 17 ]; do
	long=$long/$c240
	i=$((i + 1))
done
assert_eq "length of the long name" 4096 "${#long}"

# check NAME REASON: NAME is refused for REASON.
check() {
	request "$1" "$TF/bad"
	run agent firmware
	status_is 4
	file_is "$REQ/loading" -1 "loading for FIRMWARE '$1'"
	file_is "$REQ/data" "" "data for FIRMWARE '$1'"
	if [ ${#1} -lt 900 ]; then
		grep -Fq "for $TF/bad; bad FIRMWARE name ($2)" "$LOGF" ||
			fail "FIRMWARE '$1': no log line for '$2': $(cat "$LOGF")"
	else  # a line that long is cut by fwload, marked so
		grep -q '^fwload: cancelled bbbb.*\.\.\.$' "$LOGF" || fail "FIRMWARE '$1': log: $(cat "$LOGF")"
	fi
	[ "$(grep -c "" "$LOGF")" -eq 1 ] || fail "want one log line, got: $(cat "$LOGF")"
	rm -f "$LOGF"
}
check '' "empty name"
check /etc/passwd "absolute path"
check //etc/passwd "absolute path"
check .. "'..' component"
check ../escaped.bin "'..' component"
check a/../b.bin "'..' component"
check a/.. "'..' component"
check "../lib/firmware/b.bin" "'..' component"
for c in "$nl" "$tab" "$esc" "$soh" "$del"; do
	check "x${c}y.bin" "control character in name"
	check "x.bin$c" "control character in name"
done
check "$c256" "name component longer than NAME_MAX"
check "dir/$c256/x.bin" "name component longer than NAME_MAX"
check "$long" "name longer than PATH_MAX"

# Unset FIRMWARE is as empty.
request x.bin "$TF/bad"
unset E_FIRMWARE
run agent firmware
status_is 4
file_is "$REQ/loading" -1
grep -Fq "for $TF/bad; bad FIRMWARE name (empty name)" "$LOGF" || fail "log: $(cat "$LOGF")"

# Just inside the limits: valid names, looked up (and not found).
for name in "$c255" "dir/$c255" "${long%?}" ..x a..b/c... .hidden; do
	request "$name" "$TF/edge"
	rm -f "$LOGF"
	run agent firmware
	status_is 1
	file_is "$REQ/loading" -1 "loading for FIRMWARE '$name'"
	grep -Eq "^fwload: cancelled .*(; not found in |\.\.\.$)" "$LOGF" || fail "'$name' should be looked up; log: $(cat "$LOGF")"
done
