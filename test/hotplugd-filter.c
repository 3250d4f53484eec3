/* SPDX-License-Identifier: MIT */
/*
 * hotplugd-filter [-s SUBSYSTEM]... - run hotplugd's socket filter in the
 * kernel on messages of our own: the filter is attached to one end of an
 * AF_UNIX datagram socket pair (socket filters work there as on netlink),
 * and each line of standard input, with every '|' turned into a NUL byte,
 * is sent through it. Prints "pass" or "drop" per line, after a first line
 * "scan N" (the bytes the attached filter searches for the header's end).
 */
#define main hotplugd_main
#include "../hotplugd.c"
#undef main

int main(int argc, char **argv)
{
	static char line[MSG_MAX + 2], got[MSG_MAX + 1];
	int sv[2], scan, i;
	struct line l = { .len = 0 };

	for (i = 1; i + 1 < argc && strcmp(argv[i], "-s") == 0; i += 2) {
		if (strcmp(argv[i + 1], "all") == 0)
			opt.all = 1;
		else
			opt.subsystems[opt.nsubsystems++] = argv[i + 1];
	}
	if (!opt.nsubsystems && !opt.all)
		opt.subsystems[opt.nsubsystems++] = "firmware";
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 111;
	scan = attach_filter(sv[1]);
	line_fmt(&l, "scan %d\n", (long long)scan);
	if (write_all(1, l.buf, l.len) < 0)
		return 111;
	for (;;) {
		size_t n = 0;
		ssize_t r;
		char c;

		while ((r = read(0, &c, 1)) == 1 && c != '\n')
			if (n < sizeof(line) - 1)
				line[n++] = c == '|' ? '\0' : c;
		if (r != 1 && n == 0)
			break;
		if (send(sv[0], line, n, 0) != (ssize_t)n)
			return 111;
		r = recv(sv[1], got, sizeof(got), MSG_DONTWAIT);
		if (write_all(1, r == (ssize_t)n ? "pass\n" : "drop\n", 5) < 0)
			return 111;
	}
	return 0;
}
