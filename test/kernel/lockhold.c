/* SPDX-License-Identifier: MIT */
/*
 * lockhold [-u UID:GID] PATH... - the unprivileged attacker of the lock
 * tests: as UID:GID (no supplementary groups; or as run, under setpriv),
 * open each PATH read-only and take every lock such an fd allows: flock
 * LOCK_EX, and on files an fcntl and an OFD read lock over the whole file.
 * One line per lock on stdout ("flock PATH ok" or "... errno N"), then
 * "ready", then sleep until killed. Static, for the UML guest too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

static void said(const char *what, const char *path, int r)
{
	if (r == 0)
		printf("%s %s ok\n", what, path);
	else
		printf("%s %s errno %d\n", what, path, errno);
}

int main(int argc, char **argv)
{
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-u") == 0) {
		unsigned uid, gid;

		if (sscanf(argv[2], "%u:%u", &uid, &gid) != 2 || setgroups(0, NULL) < 0 ||
		    setgid(gid) < 0 || setuid(uid) < 0) {
			perror("lockhold: cannot drop privileges");
			return 111;
		}
		i = 3;
	}
	for (; i < argc; i++) {
		struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
		struct stat st;
		int fd = open(argv[i], O_RDONLY | O_NONBLOCK);

		if (fd < 0) {
			said("open", argv[i], -1);
			continue;
		}
		said("flock", argv[i], flock(fd, LOCK_EX | LOCK_NB));
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			said("fcntl", argv[i], fcntl(fd, F_SETLK, &fl));
			said("ofd", argv[i], fcntl(open(argv[i], O_RDONLY), F_OFD_SETLK, &fl));
		}
	}
	printf("ready uid %u\n", (unsigned)geteuid());
	fflush(stdout);
	for (;;)
		pause();
}
