# SPDX-License-Identifier: MIT
# shellcheck disable=SC2086 # $TEST_SH is a command line ("busybox sh")
# Two fwloadctl setups at once (an init script and an administrator, or two
# units), each keeping the helper it found (mdev) in previous-helper: each
# writes a temporary file of its own. A stand-in mv, first on PATH, holds
# each rename of previous-helper's temporary file until both setups have
# reached theirs: with one name between them (previous-helper.new), one
# setup found its file renamed away and refused with a false reason.
# (busybox sh runs its own mv, an applet, whatever PATH says: there the two
# setups run at once without the stand-in's hold, and both must succeed.)
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

P=$T/proc
H=$P/sys/kernel/hotplug
F=$P/sys/kernel/firmware_config/force_sysfs_fallback
mkdir -p "${F%/*}" "$SYS/class/firmware" "$T/bin" "$T/fakebin" "$T/mv"
printf '#!/bin/sh\n' >"$T/bin/mdev"
chmod 755 "$T/bin/mdev"
echo "$T/bin/mdev" >"$H"
echo 0 >"$F"
echo 60 >"$SYS/class/firmware/timeout"
conf "LOG=$LOGF"
for mv in /bin/mv /usr/bin/mv; do
	[ -x "$mv" ] && break
done
cat >"$T/fakebin/mv" <<END
#!/bin/sh
case "\$*" in
*previous-helper*)
	: >"$T/mv/\$\$"
	i=0
	while [ "\$(ls "$T/mv" | wc -l)" -lt 2 ] && [ \$i -lt 200 ]; do
		sleep 0.05
		i=\$((i + 1))
	done
	;;
esac
exec "$mv" "\$@"
END
chmod 755 "$T/fakebin/mv"
KPATH=$T/fakebin:$KPATH

for n in 1 2; do
	(
		kernel_env FWLOAD_HOTPLUG=/sbin/hotplug $TEST_SH "$REPO/fwloadctl" setup >"$T/out$n" 2>&1
		echo $? >"$T/st$n"
	) &
done
wait
n=0
for f in "$T/mv"/*; do
	[ ! -e "$f" ] || n=$((n + 1))
done
case $TEST_SH in
busybox*) ;;
*) [ "$n" = 2 ] || fail "the renames of previous-helper: $n, want 2" ;;
esac
for n in 1 2; do
	read -r st <"$T/st$n"
	[ "$st" = 0 ] || fail "setup $n of two at once: status $st: $(cat "$T/out$n")"
done
file_is "$H" '/sbin/hotplug
'
file_is "$RUN/previous-helper" "$T/bin/mdev
"
for f in "$RUN"/previous-helper.*; do
	[ ! -e "$f" ] || fail "a temporary file left: $f"
done
