# SPDX-License-Identifier: MIT
# 1,000 uevents of another subsystem (test_firmware's own device, misc):
# with hotplugd as the source they start no process at all (its socket
# filter drops them in the kernel); with the uevent helper each starts one
# (/sbin/hotplug) or more. Counted with the "processes" line of /proc/stat,
# against the same wait with no storm, less the kernel threads started
# meanwhile (only user-space processes count, whatever ran before). A
# firmware request right after is served.
. ../lib.sh
. ./hotplugd-lib

# top_pid: $top, the highest process id now in /proc.
top_pid() {
	top=0
	for _d in /proc/[0-9]*; do
		_d=${_d#/proc/}
		[ "$_d" -le "$top" ] || top=$_d
	done
}

# kthreads_after PID: $K, the kernel threads (parent 2, kthreadd, or 2
# itself) now running with a process id above PID: forks /proc/stat counts
# that no user-space process made (a kblockd worker the kernel starts
# seconds after a read through a loop device, say).
kthreads_after() {
	K=0
	for _s in /proc/[0-9]*/stat; do
		read -r _pid _ _ _pp _ 2>/dev/null <"$_s" || continue
		[ "$_pid" -gt "$1" ] && [ "$_pp" = 2 ] && K=$((K + 1))
	done
}

# storm_forks: the user-space processes started by 1,000 change events, in
# F: the forks counted by /proc/stat, less those of a quiet wait as long,
# less the kernel threads started meanwhile.
storm_forks() {
	top_pid
	t0=$top
	procs
	p0=$P
	sleep 2
	top_pid
	t1=$top
	procs
	p1=$P
	kthreads_after "$t0"
	k0=$K
	i=0
	while [ $i -lt 1000 ]; do
		echo change >"$TF/uevent"
		i=$((i + 1))
	done
	sleep 2
	procs
	kthreads_after "$t1"
	F=$(( (P - p1 - K) - (p1 - p0 - k0) ))
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
