echo inside; ls -la /sbin/hotplug /sbin/fwload /etc/hotplug.d/firmware; readlink /bin/sh; cat /proc/sys/kernel/hotplug; id; exit 3
