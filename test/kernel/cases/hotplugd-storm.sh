# SPDX-License-Identifier: MIT
# 1,000 uevents of another subsystem (test_firmware's own device, misc):
# with hotplugd as the source they start no process at all (its socket
# filter drops them in the kernel); with the uevent helper each starts one
# (/sbin/hotplug) or more. Counted with the "processes" line of /proc/stat,
# against the same wait with no storm. A firmware request right after is
# served.
. ../lib.sh
. ./hotplugd-lib

# storm_forks: the processes started by 1,000 change events, in F.
storm_forks() {
	procs
	p0=$P
	sleep 2
	procs
	p1=$P
	i=0
	while [ $i -lt 1000 ]; do
		echo change >"$TF/uevent"
		i=$((i + 1))
	done
	sleep 2
	procs
	F=$(( (P - p1) - (p1 - p0) ))
}

start_hotplugd -s firmware
storm_forks
with_hotplugd=$F
mkimage fwload-test-storm.bin 5000
request fwload-test-storm.bin
kill -0 "$HPID" || fail "hotplugd died in the storm"

no_source
echo /sbin/hotplug >/proc/sys/kernel/hotplug
storm_forks
with_helper=$F
echo "storm: 1000 misc uevents started $with_hotplugd processes with hotplugd, $with_helper with the uevent helper (kernel $(uname -r))"
[ "$with_hotplugd" -eq 0 ] || fail "with hotplugd the storm started $with_hotplugd processes, want 0"
[ "$with_helper" -ge 1000 ] || fail "with the helper the storm started only $with_helper processes: the count is wrong"
