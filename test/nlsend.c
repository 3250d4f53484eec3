/* SPDX-License-Identifier: MIT */
/*
 * nlsend [-u UID | -U UID] PORT STRING... - send one datagram on NETLINK_KOBJECT_UEVENT
 * to the netlink port id PORT (unicast, which needs CAP_NET_ADMIN), made of
 * the STRINGs each ended by a NUL byte: a forged uevent, such as
 *
 *   nlsend 1234 add@/devices/x ACTION=add DEVPATH=/devices/x SUBSYSTEM=firmware
 *
 * nlsend -k STRING... - the same message to the kernel's own uevent socket
 * (port 0), in a netlink header (NLM_F_REQUEST): since Linux 4.18 the kernel
 * re-broadcasts it to group 1 from port 0, with SEQNUM appended and the
 * sender's credentials (uevent_net_rcv() in lib/kobject_uevent.c; it needs
 * CAP_SYS_ADMIN over the network namespace).
 *
 * With -u, first become UID (from root) but keep CAP_NET_ADMIN, as a
 * network daemon running as its own user does: the kernel lets only
 * CAP_NET_ADMIN send to a port id on this protocol, and the message then
 * carries UID's credentials. With -U, become UID with no capabilities.
 * Prints nothing; exit 0 sent, 1 not sent (the reason on stderr), 100 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

struct nl_addr {
	sa_family_t family;
	unsigned short pad;
	uint32_t pid;
	uint32_t groups;
};

int main(int argc, char **argv)
{
	static char buf[8192];
	struct nl_addr to = { .family = AF_NETLINK };
	struct { uint32_t len; uint16_t type, flags; uint32_t seq, pid; } *nlh = (void *)buf;
	size_t n = 0;
	int fd, i = 1, kernel = argc > 1 && strcmp(argv[1], "-k") == 0;

	if (argc > 2 && (strcmp(argv[1], "-u") == 0 || strcmp(argv[1], "-U") == 0)) {
		uid_t uid = (uid_t)strtoul(argv[2], NULL, 10);
		int keep = argv[1][1] == 'u';
		struct { uint32_t version; int pid; } hdr = { 0x20080522, 0 };  /* _LINUX_CAPABILITY_VERSION_3 */
		struct { uint32_t effective, permitted, inheritable; } caps[2] = { { 1u << 12, 1u << 12, 0 } };

		if ((keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0) || setgroups(0, NULL) < 0 ||
		    setgid(uid) < 0 || setuid(uid) < 0 ||
		    (keep && syscall(SYS_capset, &hdr, caps) < 0)) {  /* CAP_NET_ADMIN = 12 */
			perror("nlsend: cannot change user");
			return 1;
		}
		i = 3;
	}
	if (kernel) {
		i = 2;
		n = sizeof(*nlh);  /* the header, filled in below */
	} else if (argc - i >= 2) {
		to.pid = (uint32_t)strtoul(argv[i++], NULL, 10);
	} else {
		i = argc;  /* PORT and a STRING at least */
	}
	if (argc - i < 1) {
		fputs("usage: nlsend [-u UID | -U UID] PORT STRING...\n       nlsend -k STRING...\n", stderr);
		return 100;
	}
	for (; i < argc; i++) {
		size_t l = strlen(argv[i]) + 1;

		if (n + l > sizeof(buf)) {
			fputs("nlsend: message too long\n", stderr);
			return 100;
		}
		memcpy(buf + n, argv[i], l);
		n += l;
	}
	if (kernel) {
		nlh->len = (uint32_t)n;
		nlh->type = 0x10;  /* NLMSG_MIN_TYPE: lower types are control messages */
		nlh->flags = 1;    /* NLM_F_REQUEST */
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, 15 /* NETLINK_KOBJECT_UEVENT */);
	if (fd < 0) {
		perror("nlsend: socket");
		return 1;
	}
	if (sendto(fd, buf, n, 0, (struct sockaddr *)&to, sizeof(to)) != (ssize_t)n) {
		perror("nlsend: sendto");
		return 1;
	}
	return 0;
}
