# SPDX-License-Identifier: MIT
# A user= rule under fwload.service's own sandbox: the agent run through
# util-linux setpriv with the unit's CapabilityBoundingSet=, its
# NoNewPrivileges= and its UMask=, read from contrib/init/systemd/
# fwload.service (the test follows the unit; a setting it cannot apply
# fails it). The program runs as the rule's user and the image is
# committed. Before, the unit's bounding set lacked CAP_SETUID and
# CAP_SETGID: fwload-runas failed with EPERM and every user= rule aborted.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
needs fwload-runas fwload-keep

for SETPRIV in /usr/bin/setpriv /bin/setpriv ''; do
	[ -x "$SETPRIV" ] && break
done
[ -n "$SETPRIV" ] || fail "no setpriv (util-linux)"
unit=$REPO/contrib/init/systemd/fwload.service

# The unit's settings that decide what its processes may do. systemd adds
# up CapabilityBoundingSet= lines; an empty one resets the list.
caps='' nnp=no um=0022
while IFS= read -r line; do
	case $line in
	SystemCallFilter=* | User=* | Group=* | DynamicUser=* | AmbientCapabilities=* | SecureBits=* | \
		PrivateUsers=* | CapabilityBoundingSet=~*)
		fail "$unit sets ${line%%=*}=, which this test does not apply: apply it here" ;;
	CapabilityBoundingSet=) caps='' ;;
	CapabilityBoundingSet=*) caps="$caps ${line#*=}" ;;
	NoNewPrivileges=*) nnp=${line#*=} ;;
	UMask=*) um=${line#*=} ;;
	esac
done <"$unit"
[ -n "$caps" ] || fail "no CapabilityBoundingSet= in $unit"
bset=-all
for c in $caps; do
	bset="$bset,+$(printf %s "${c#CAP_}" | tr '[:upper:]' '[:lower:]')"
done
nnp_opt=''
[ "$nnp" != yes ] || nnp_opt=--no-new-privs
echo "note: $unit: --bounding-set $bset $nnp_opt, umask $um"

# sandboxed COMMAND...: COMMAND as the unit runs its processes (root, the
# bounding set, no inheritable capability, no new privileges, the umask).
sandboxed() {
	# shellcheck disable=SC2086 # empty, or one option
	(umask "$um" && exec "$SETPRIV" --bounding-set "$bset" --inh-caps -all $nnp_opt "$@")
}

# The sandbox is applied: no CAP_SYS_ADMIN (21) in the bounding set, and
# no new privileges as the unit says.
sandboxed grep -E '^(CapBnd|NoNewPrivs):' /proc/self/status >"$T/status" || fail "setpriv: $(cat "$T/status")"
bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' "$T/status")
[ $((0x$bnd >> 21 & 1)) = 0 ] || fail "the unit's bounding set was not applied: CapBnd $bnd"
[ "$nnp" != yes ] || grep -q '^NoNewPrivs:[[:space:]]*1$' "$T/status" || fail "no new privileges not applied: $(cat "$T/status")"

runas_user
conf "LOG=$LOGF" "RULES=$T/fwload.rules"
echo "firmware=unit.bin run=$T/prog user=$RUNAS" >"$T/fwload.rules"
cat >"$T/prog" <<'PROG'
#!/bin/sh
echo "$FIRMWARE as $(id -u):$(id -g):$(id -G)"
PROG
chmod 755 "$T/prog"
request unit.bin
# shellcheck disable=SC2086 # TEST_SH is a command line ("busybox sh")
(umask "$um" && run kernel_env "$SETPRIV" --bounding-set "$bset" --inh-caps -all $nnp_opt \
	$TEST_SH "$REPO/firmware.agent" firmware)
st=$?
status_is 0
file_is "$REQ/loading" 10 "loading (log: $(cat "$LOGF"))"
file_is "$REQ/data" "unit.bin as $RUNAS_ID:$RUNAS_ID:$RUNAS_ID
" "what the program run under the unit's sandbox said"
