/* SPDX-License-Identifier: MIT */
/*
 * fwload-runas - run a program as a given user, with no supplementary
 * groups, for fwload's COMMAND slot (a rules file's run= with user=).
 *
 *   fwload-runas UID:GID PROGRAM [ARG]...
 *
 *   1. setgroups(0): no supplementary groups (root's would stay otherwise)
 *   2. setgid(GID), then setuid(UID): the group first, while we still may
 *   3. check that all of it stuck: real and effective IDs are UID and GID,
 *      no supplementary group, and setuid(0) now fails (for UID != 0)
 *   4. exec PROGRAM (an absolute path) with ARGs and our environment
 *
 * As skarnet's s6-setuidgid, it does one thing and becomes the rest of its
 * command line; the caller resolves a user name (firmware.agent reads the
 * root-owned /etc/passwd), so that no NSS module runs here. Exit status:
 * 100 usage, 111 the IDs could not be set (nothing was run), 126 PROGRAM
 * could not be run, else PROGRAM's.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <grp.h>
#include "util.h"

static const char usage_text[] =
	"usage: fwload-runas UID:GID PROGRAM [ARG]...\n"
	"       fwload-runas --help | --version\n"
	"Runs PROGRAM (an absolute path) as UID and GID, with no supplementary groups.\n";

#define say(...) say_as("fwload-runas", __VA_ARGS__)

/* "UID:GID", each a whole number below 2^32 - 1 (-1 is "no change"). */
static int ids_arg(const char *s, uid_t *uid, gid_t *gid)
{
	const char *colon = strchr(s, ':');
	char num[16];
	int64_t u, g;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(num))
		return -1;
	memcpy(num, s, (size_t)(colon - s));
	num[colon - s] = '\0';
	u = parse_num(num, 0xfffffffe, NULL);
	g = parse_num(colon + 1, 0xfffffffe, NULL);
	if (u < 0 || g < 0)
		return -1;
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 0;
}

int main(int argc, char **argv)
{
	extern char **environ;
	uid_t uid, ruid, euid, suid;
	gid_t gid, rgid, egid, sgid;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return write_all(1, usage_text, sizeof(usage_text) - 1) ? EX_SYSTEM : EX_USAGE;
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return write_all(1, "fwload-runas " FWLOAD_VERSION "\n",
				 sizeof("fwload-runas " FWLOAD_VERSION)) ? EX_SYSTEM : EX_USAGE;
	if (argc < 3 || ids_arg(argv[1], &uid, &gid) < 0 || argv[2][0] != '/') {
		say("want UID:GID (whole numbers), then an absolute PROGRAM");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	if (setgroups(0, NULL) < 0) {
		say("cannot drop the supplementary groups%e", errno);
		return EX_SYSTEM;
	}
	if (setresgid(gid, gid, gid) < 0) {
		say("cannot set the group to %d%e", (long long)gid, errno);
		return EX_SYSTEM;
	}
	if (setresuid(uid, uid, uid) < 0) {
		say("cannot set the user to %d%e", (long long)uid, errno);
		return EX_SYSTEM;
	}
	if (getresuid(&ruid, &euid, &suid) < 0 || getresgid(&rgid, &egid, &sgid) < 0 ||
	    ruid != uid || euid != uid || suid != uid || rgid != gid || egid != gid ||
	    sgid != gid || getgroups(0, NULL) != 0 || (uid != 0 && setuid(0) == 0)) {
		say("the user %d and group %d did not stick; nothing run", (long long)uid,
		    (long long)gid);
		return EX_SYSTEM;
	}
	execve(argv[2], argv + 2, environ);
	say("cannot run %q%e", argv[2], errno);
	return 126;
}
