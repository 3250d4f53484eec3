# SPDX-License-Identifier: MIT
# hotplug runs HOTPLUG_DIR/SUBSYSTEM/*.hotplug, then HOTPLUG_DIR/default/*,
# each in sorted (C locale) order, one at a time, with the subsystem as $1
# and the uevent's environment.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

# hook DIR NAME: a hook that logs its start and end (a short sleep between
# them shows whether two hooks ever overlap) and what it was given.
hook() {
	mkdir -p "$HOOKS/$1"
	cat >"$HOOKS/$1/$2" <<END
#!/bin/sh
echo "start $1/$2" >>"$T/ran"
sleep 0.1
echo "end $1/$2 args=\$# \$1 ACTION=\$ACTION DEVPATH=\$DEVPATH SUBSYSTEM=\$SUBSYSTEM FIRMWARE=\$FIRMWARE TIMEOUT=\$TIMEOUT ASYNC=\$ASYNC SEQNUM=\$SEQNUM HOME=\$HOME PATH=\$PATH dir=\${dir-unset} hook=\${hook-unset}" >>"$T/ran"
END
	chmod 755 "$HOOKS/$1/$2"
}

# Made out of order; the glob must sort them (C order: digits, upper, lower).
hook default 99-last.hotplug
hook firmware b.hotplug
hook default 00-first.hotplug
hook firmware 20-b.hotplug
hook firmware 'with space.hotplug'
hook firmware 10-a.hotplug
hook firmware B.hotplug
hook block 10-block.hotplug  # another subsystem's: must not run

request x.bin
run hotplug firmware
status_is 0
stdout_is ''
stderr_is ''

env="args=1 firmware ACTION=add DEVPATH=$TF/x.bin SUBSYSTEM=firmware FIRMWARE=x.bin TIMEOUT=60 ASYNC=0 SEQNUM=$E_SEQNUM HOME=/ PATH=$KPATH dir=unset hook=unset"
cat >"$T/want" <<END
start firmware/10-a.hotplug
end firmware/10-a.hotplug $env
start firmware/20-b.hotplug
end firmware/20-b.hotplug $env
start firmware/B.hotplug
end firmware/B.hotplug $env
start firmware/b.hotplug
end firmware/b.hotplug $env
start firmware/with space.hotplug
end firmware/with space.hotplug $env
start default/00-first.hotplug
end default/00-first.hotplug $env
start default/99-last.hotplug
end default/99-last.hotplug $env
END
diff "$T/want" "$T/ran" || fail "hooks ran in the wrong order, overlapped or got the wrong environment"

# Without an argument the subsystem comes from SUBSYSTEM.
rm -f "$T/ran"
E_SUBSYSTEM=block
run hotplug
status_is 0
[ "$(grep -c '^start' "$T/ran")" -eq 3 ] || fail "want block's hook and the 2 default ones: $(cat "$T/ran")"
grep -q '^start block/10-block.hotplug$' "$T/ran" || fail "block's hook did not run: $(cat "$T/ran")"
grep -q '^end block/10-block.hotplug args=1 block ' "$T/ran" || fail "block's hook did not get 'block' as \$1: $(cat "$T/ran")"
