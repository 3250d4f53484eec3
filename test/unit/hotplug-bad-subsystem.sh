# SPDX-License-Identifier: MIT
# A subsystem that is empty, has a '/' or '..', or looks like an option is
# refused: non-zero exit, no hook runs (not even the default ones).
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

mkdir -p "$HOOKS/default" "$HOOKS/firmware" "$HOOKS/x..y" "$HOOKS/-n"
for d in default firmware x..y -n; do
	# shellcheck disable=SC2016 # $1 is the hook's
	printf '#!/bin/sh\necho "%s $1" >>"%s"\n' "$d" "$T/ran" >"$HOOKS/$d/10.hotplug"
	chmod 755 "$HOOKS/$d/10.hotplug"
done
# ../hotplug.d/firmware would reach the firmware hooks through '..'.
request x.bin
for sub in '' / .. ../hotplug.d/firmware firmware/ firmware/../firmware a/b \
	x..y -n --; do
	run hotplug "$sub"
	[ "$st" -ne 0 ] || fail "subsystem '$sub' accepted (exit 0)"
	no_file "$T/ran" "a hook ran for subsystem '$sub'"
	grep -q . "$T/stderr" || fail "no message for subsystem '$sub'"
done

# No argument and no SUBSYSTEM: nothing to go on.
unset E_SUBSYSTEM
run hotplug
[ "$st" -ne 0 ] || fail "an event without a subsystem was accepted"
no_file "$T/ran" "a hook ran for an event without a subsystem"

# The control: a good subsystem runs its hook and the default one.
E_SUBSYSTEM=firmware
run hotplug firmware
status_is 0
printf 'firmware firmware\ndefault firmware\n' | cmp -s - "$T/ran" || fail "control run: $(cat "$T/ran")"
