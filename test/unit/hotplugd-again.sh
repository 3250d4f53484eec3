# SPDX-License-Identifier: MIT
# A job that dies before it answered leaves its request to hotplugd: a
# child killed by a signal (here its whole process group: kill -9 0, as an
# OOM kill or a kill -9 -PGID does to hook, agent and fwload at once) or
# ending 126 or more (could not run) gets its request looked at again, as
# the start rescan would: PROGRAM runs once more for it, and not a third
# time (a request whose every job dies is left to the kernel's timeout,
# with one line). Not looked at again: a request answered before its job
# died (its directory gone), one replaced at the same DEVPATH meanwhile (a
# new kernfs node: the identity, not the name, is what hotplugd looks for),
# and a job that ended by itself (exit 1 is an answer). Before, hotplugd
# freed the slot and nothing answered: the driver waited out its timeout.
# shellcheck disable=SC2016 # wait_for takes sh code, expanded when it runs
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"
# shellcheck source=hotplugd-lib
. "$REPO/test/unit/hotplugd-lib"

# The stand-in PROGRAM: its run's number for the name in $T/jobs; then what
# the name asks for; a served request's directory removed (the kernel's
# part). Removed means moved to $T/gone, never deleted: kernfs never reuses
# an inode, but a disk file system under $T (ext4) hands a deleted one out
# again at once, and a request made later (replaced.bin's new one) would have
# the identity of one answered before (answered.bin's), which hotplugd
# looks for again.
cat >"$T/prog" <<END
#!/bin/sh
n=\$(cat "$T/count-\$FIRMWARE" 2>/dev/null) || n=0
n=\$((n + 1))
echo "\$n" >"$T/count-\$FIRMWARE"
echo "\$FIRMWARE \$n" >>"$T/jobs"
req=$SYS\$DEVPATH
case \$FIRMWARE:\$n in
killed.bin:1 | always.bin:*) kill -KILL 0 ;;
cannot.bin:1) exit 127 ;;
fails.bin:1) exit 1 ;;
answered.bin:1) mv "\$req" "$T/gone/\$FIRMWARE" && kill -KILL 0 ;;
replaced.bin:1)
	# made before the old one goes: a new inode (kernfs never reuses one)
	mkdir "\$req.new" && : >"\$req.new/loading" && : >"\$req.new/data" &&
		printf 'FIRMWARE=replaced.bin\nTIMEOUT=60\nASYNC=1\n' >"\$req.new/uevent" &&
		mv "\$req" "$T/gone/\$FIRMWARE" && mv "\$req.new" "\$req" && kill -KILL 0
	;;
esac
mv "\$req" "$T/gone/\$FIRMWARE.\$n"
END
chmod 755 "$T/prog"
: >"$T/jobs"
mkdir "$T/gone"
for n in killed always cannot fails answered replaced served; do
	pending "$n.bin"
done
hpd_start -x "$T/prog" -S "$SYS"
want="always.bin 1
always.bin 2
answered.bin 1
cannot.bin 1
cannot.bin 2
fails.bin 1
killed.bin 1
killed.bin 2
replaced.bin 1
served.bin 1"
wait_for '[ "$(wc -l <"$T/jobs")" -ge 10 ]' "PROGRAM's runs: $(cat "$T/jobs"); hotplugd: $(cat "$T/hpd.err")"
hpd_idle  # every run ended and reaped: a run too many shows by now
sort "$T/jobs" >"$T/got"
printf '%s\n' "$want" | diff - "$T/got" >"$T/diff" || fail "PROGRAM's runs (want, got): $(cat "$T/diff"); hotplugd: $(cat "$T/hpd.err")"
for n in killed cannot answered served; do
	no_file "$SYS$TF/$n.bin" "$n.bin: still pending"
done
[ -e "$SYS$TF/always.bin/loading" ] || fail "always.bin: its request went"
[ -e "$SYS$TF/replaced.bin/loading" ] || fail "replaced.bin: the new request was served as the old one's"
err=$(cat "$T/hpd.err")
for line in "$T/prog for add $TF/killed.bin: killed by signal 9; its request is looked at again" \
	"$T/prog could not run for add $TF/cannot.bin: exit status 127; its request is looked at again" \
	"$T/prog for add $TF/always.bin: killed by signal 9; its request was looked at again once already: left to the kernel's timeout" \
	"again: pending request $TF/killed.bin"; do
	printf '%s\n' "$err" | grep -Fqx "hotplugd: $line" || fail "no line '$line': $err"
done
printf '%s\n' "$err" | grep -q 'again: pending request .*/\(answered\|replaced\|fails\)\.bin' &&
	fail "looked at again: $err"
hpd_stop TERM
