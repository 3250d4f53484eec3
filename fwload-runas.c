/* SPDX-License-Identifier: MIT */
/*
 * fwload-runas - run a program as a given user, confined, for fwload's
 * COMMAND slot (a rules file's run= with user=).
 *
 *   fwload-runas UID:GID PROGRAM [ARG]...
 *
 *   0. refuse UID 0 and GID 0 (root's), UID 65534 (the overflow uid,
 *      nobody: shared, and every process of a uid can ptrace the program)
 *      and GID 65534 (the overflow gid, nogroup: shared, and what is the
 *      group's is the program's)
 *   1. fds 3 and up closed; no controlling terminal: with one (or when
 *      /dev/tty cannot tell), a session of its own (setsid); without one,
 *      the session it is in (fwload starts each COMMAND in a session of
 *      its own, whose process group it ends as one); / as its directory;
 *      PR_SET_NO_NEW_PRIVS
 *   2. setgroups(0): no supplementary groups (root's would stay otherwise)
 *   3. setgid(GID), then setuid(UID): the group first, while we still may
 *   4. check that all of it stuck: real, effective and saved IDs are UID
 *      and GID, no supplementary group, no capability, setuid(0) fails,
 *      no new privileges, / is the directory, /dev/tty opens no terminal
 *   5. exec PROGRAM (an absolute path) with ARGs and a clean environment:
 *      the event's variables (util.h's firmware keys), HOME=/ and the
 *      kernel's PATH
 *
 * As skarnet's s6-setuidgid, it does one thing and becomes the rest of its
 * command line; the caller resolves a user name (firmware.agent reads the
 * root-owned /etc/passwd), so that no NSS module runs here. Exit status:
 * 100 usage (a refused UID or GID too), 111 the confinement could not be
 * set up or did not stick (nothing was run), 126 PROGRAM could not be run,
 * else PROGRAM's.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <grp.h>
#include <sys/prctl.h>
#include "request.h"

static const char usage_text[] =
	"usage: fwload-runas UID:GID PROGRAM [ARG]...\n"
	"       fwload-runas --help | --version\n"
	"Runs PROGRAM (an absolute path) as UID and GID, with no supplementary groups,\n"
	"no controlling terminal, no new privileges, in /, with the event's variables.\n";

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

/* Has this process no controlling terminal? /proc/self/stat's tty_nr is
 * 0; where there is no /proc, /dev/tty cannot be opened (ENXIO; ENOENT:
 * no /dev/tty to open one by). */
static int no_tty(void)
{
	int64_t tty = proc_stat(0, 7);
	int fd;

	if (tty >= 0)
		return tty == 0;
	fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return fd < 0 && (errno == ENXIO || errno == ENOENT);
}

/* The capabilities left (capget, version 3: two 32-bit words of each set). */
static int has_caps(void)
{
	struct { uint32_t version; int pid; } head = { 0x20080522, 0 };
	struct { uint32_t effective, permitted, inheritable; } data[2];

	return syscall(SYS_capget, &head, data) < 0 || data[0].effective || data[0].permitted ||
	       data[1].effective || data[1].permitted;
}

int main(int argc, char **argv)
{
	extern char **environ;
	static const char *env[FIRMWARE_KEYS + 3];
	uid_t uid, ruid, euid, suid;
	gid_t gid, rgid, egid, sgid;
	struct stat here, root;
	const char *why = NULL;
	int n = 0;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	help_version(argc, argv, usage_text, "fwload-runas " FWLOAD_VERSION "\n", EX_USAGE);
	if (argc < 3 || ids_arg(argv[1], &uid, &gid) < 0 || argv[2][0] != '/') {
		say("want UID:GID (whole numbers), then an absolute PROGRAM");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	if (uid == 0 || gid == 0 || uid == 65534 || gid == 65534) {
		say("refusing %s: a user of its own, one that runs nothing else, for the program; nothing run",
		    uid == 0 ? "uid 0 (root)" : gid == 0 ? "gid 0 (root's group)" :
		    uid == 65534 ? "uid 65534 (the overflow uid, nobody)" : "gid 65534 (the overflow gid, nogroup)");
		return EX_USAGE;
	}
	close_from(3);
	/* Out of a terminal's session; else it stays in the process group
	 * fwload made (behind fwload-sha256, say), which fwload ends whole. */
	if (!no_tty() && setsid() < 0) {
		say("cannot leave the controlling terminal (setsid)%e; nothing run", errno);
		return EX_SYSTEM;
	}
	if (chdir("/") < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0) {
		say("cannot change to / and set no new privileges%e; nothing run", errno);
		return EX_SYSTEM;
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
	    sgid != gid || getgroups(0, NULL) != 0 || setuid(0) == 0)
		why = "the user and groups";
	else if (has_caps())
		why = "no capability";
	else if (prctl(PR_GET_NO_NEW_PRIVS, 0L, 0L, 0L, 0L) != 1)
		why = "no new privileges";
	else if (stat(".", &here) < 0 || stat("/", &root) < 0 || here.st_dev != root.st_dev ||
		 here.st_ino != root.st_ino)
		why = "/ as the directory";
	else if (!no_tty())
		why = "no controlling terminal";
	if (why) {
		say("user %d, group %d: %s did not stick; nothing run", (long long)uid, (long long)gid, why);
		return EX_SYSTEM;
	}
	/* The event's variables, the first of each name, then HOME and PATH. */
	for (int k = 0; k < FIRMWARE_KEYS; k++)
		for (char **e = environ; *e; e++)
			if (strncmp(*e, uevent_keys[k], strlen(uevent_keys[k])) == 0 &&
			    (*e)[strlen(uevent_keys[k])] == '=') {
				env[n++] = *e;
				break;
			}
	env[n++] = "HOME=/";
	env[n++] = KERNEL_PATH;
	execve(argv[2], argv + 2, (char *const *)env);
	say("cannot run %q%e", argv[2], errno);
	return 126;
}
