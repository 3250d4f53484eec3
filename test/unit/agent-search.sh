# SPDX-License-Identifier: MIT
# The agent looks for FIRMWARE where the kernel does, in its order, then in
# FIRMWARE_PATH, all under FIRMWARE_ROOT: firmware_class.path,
# updates/RELEASE, updates, RELEASE, the base directory, the extra ones.
# Each step loads the first copy, then removes it to uncover the next.
# shellcheck source=../lib.sh
. "$REPO/test/lib.sh"

R=$T/root
echo 6.12.0-test >"$T/proc/sys/kernel/osrelease"
mkdir -p "$SYS/module/firmware_class/parameters"
echo /custom >"$SYS/module/firmware_class/parameters/path"  # sysfs adds \n
conf "LOG=$LOGF" "FIRMWARE_ROOT=$R" "FIRMWARE_PATH=/extra/one::/extra/two"

name=fwload-test-order.bin
set -- /custom /lib/firmware/updates/6.12.0-test /lib/firmware/updates \
	/lib/firmware/6.12.0-test /lib/firmware /extra/one /extra/two
for dir; do
	mkfw "$R$dir/$name" "copy in $dir"
done
# Decoys: the wrong release, the real root, a near miss of the name.
mkfw "$R/lib/firmware/updates/6.1.0-other/$name" decoy
mkfw "$R/lib/firmware/$name.bak" decoy
mkfw "$R/$name" decoy  # what an empty FIRMWARE_PATH element would find
for dir; do
	request "$name"
	run agent firmware
	status_is 0
	file_is "$REQ/loading" 10 "loading for the copy in $dir"
	file_is "$REQ/data" "copy in $dir" "data (want the copy in $dir)"
	log_matches "$(loaded_line "$name" "$R$dir/$name")"
	rm "$R$dir/$name"
done

# None left: cancelled, and the log says where it looked.
request "$name"
run agent firmware
status_is 1
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
log_has "fwload: cancelled $name for $TF/$name; not found in $R /custom:/lib/firmware/updates/6.12.0-test:/lib/firmware/updates:/lib/firmware/6.12.0-test:/lib/firmware:/extra/one::/extra/two"

# firmware_class.path cleared (sysfs then reads as a bare newline) or not
# there at all: the list starts at updates/RELEASE.
printf '\n' >"$SYS/module/firmware_class/parameters/path"
mkfw "$R/custom/$name" "copy in /custom"
mkfw "$R/lib/firmware/$name" "copy in /lib/firmware"
request "$name"
run agent firmware
status_is 0
file_is "$REQ/data" "copy in /lib/firmware"
rm -r "$SYS/module"
request "$name"
run agent firmware
status_is 0
file_is "$REQ/data" "copy in /lib/firmware"

# No PROCFS osrelease: the release comes from uname -r. (The release is
# read when the config cache is made, and kept in it: the cache lives in a
# run directory, which a reboot empties.)
rm "$T/proc/sys/kernel/osrelease"
rm -r "$RUN"
mkfw "$R/lib/firmware/updates/$(uname -r)/$name" "copy for the running kernel"
request "$name"
run agent firmware
status_is 0
file_is "$REQ/data" "copy for the running kernel"

# A symlink to the real file (linux-firmware ships many) is followed, also
# from one searched directory into another, and through a link that leaves
# them on the way (update-alternatives does that).
rm -r "$R/lib/firmware"
mkfw "$R/lib/firmware/updates/vendor/real.bin" "the real file"
mkdir -p "$R/lib/firmware" "$R/etc/alternatives"
ln -s ../../lib/firmware/updates/vendor/real.bin "$R/etc/alternatives/real.bin"
ln -s ../../etc/alternatives/real.bin "$R/lib/firmware/$name"
request "$name"
run agent firmware
status_is 0
file_is "$REQ/data" "the real file"

# But a link whose target lies outside every searched directory is not
# followed there: the request is aborted and the log says where it led.
rm "$R/lib/firmware/$name"
mkfw "$R/store/secret" "not firmware"
ln -s ../../store/secret "$R/lib/firmware/$name"
request "$name"
run agent firmware
status_is 2
file_is "$REQ/loading" -1
file_is "$REQ/data" ""
log_has "fwload: $name: $R/lib/firmware/$name resolves to $R/store/secret, outside the firmware directories; request aborted"
