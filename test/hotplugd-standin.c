/* SPDX-License-Identifier: MIT */
/*
 * hotplugd-standin -p PIDFILE -D FD - a hotplugd for fwloadctl's tests, a
 * program of its own: fwloadctl trusts a pid only when /proc/PID/exe is
 * the hotplugd it runs (a test copies this one to where FWLOAD_HOTPLUGD
 * points). It appends "hotplugd ARGS" to $STANDIN_LOG when that is set,
 * writes its pid to PIDFILE, a newline to FD (then closes it), and waits
 * for a signal to end it, 120 s at most (no test leaves it behind).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *log = getenv("STANDIN_LOG"), *pidfile = NULL;
	int fd = -1;
	FILE *f;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-p") == 0)
			pidfile = argv[i + 1];
		else if (strcmp(argv[i], "-D") == 0)
			fd = atoi(argv[i + 1]);
	}
	if (log && (f = fopen(log, "a"))) {
		fputs("hotplugd", f);
		for (int i = 1; i < argc; i++)
			fprintf(f, " %s", argv[i]);
		fputc('\n', f);
		fclose(f);
	}
	if (!pidfile || fd < 3)
		return 100;
	if (!(f = fopen(pidfile, "w")) || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
		return 111;
	if (write(fd, "\n", 1) != 1)
		return 111;
	close(fd);
	sleep(120);
	return 0;
}
