/* SPDX-License-Identifier: MIT */
/*
 * util.h - the generic layer of fwload's C programs: one name and one
 * contract each, no stdio, libc only. A program is one .c file plus the
 * headers it includes; what it does not call costs nothing (static,
 * unused: dropped by the compiler). line.h holds the messages, request.h
 * what a firmware request is, log.h the log sinks.
 *
 *   same_file, names_file, ours_alone identity, and who may write
 *   mkdir_parent                      a path's directory, made if missing
 *   sanitize_fds, close_from          fds 0-2 open; fds from N up closed
 *   sig_default, child_reset          a child's state before execve
 *   child_start                       vfork, fds, reset, execve: the one start
 *   help_version, parse_num, opt_next --help/--version, numbers, options
 *   struct dirbuf, dir_next           a directory's names, no malloc
 *   proc_stat                         a field of /proc/PID/stat
 *   now_ms                            the monotonic clock in milliseconds
 *
 * Include it after the feature macros.
 */
#ifndef FWLOAD_UTIL_H
#define FWLOAD_UTIL_H

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "line.h"

#ifndef FWLOAD_VERSION
#define FWLOAD_VERSION "unknown"
#endif
/* The paths of the install: the Makefile's (PATHS); these are its defaults. */
#ifndef FWLOAD_RUNDIR
#define FWLOAD_RUNDIR "/run/fwload"
#endif
#ifndef FWLOAD_SBINDIR
#define FWLOAD_SBINDIR "/sbin"
#endif
#ifndef FWLOAD_LIBEXECDIR
#define FWLOAD_LIBEXECDIR "/lib/fwload"
#endif
#ifndef FWLOAD_SYSCONFDIR
#define FWLOAD_SYSCONFDIR "/etc"
#endif

/* --- Files --- */

/* Are a and b the same file (device and inode)? */
UTIL int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Is st root's (or our euid's) alone: its owner one of them, no write bit
 * for its group or others? What a file or directory must be for its
 * content to be believed (the configuration, its cache, the run
 * directory). */
UTIL int ours_alone(const struct stat *st)
{
	static long me = -1;

	if (me < 0)
		me = (long)geteuid();
	return (st->st_uid == 0 || (long)st->st_uid == me) && !(st->st_mode & 022);
}

/* Does dir/name (a link not followed; dir may be AT_FDCWD) still name the
 * file open as fd? */
UTIL int names_file(int fd, int dir, const char *name)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && fstatat(dir, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && same_file(&a, &b);
}

/*
 * The directory path is in, made with mode when missing (that one level
 * only; none for "/"): 0 when it is there now, else -1 (errno).
 */
UTIL int mkdir_parent(const char *path, mode_t mode)
{
	char dir[PATH_MAX], *slash;
	size_t n = strlen(path);

	if (n >= sizeof(dir))
		return errno = ENAMETOOLONG, -1;
	memcpy(dir, path, n + 1);
	if (!(slash = strrchr(dir, '/')) || slash == dir)
		return errno = ENOENT, -1;
	*slash = '\0';
	return mkdir(dir, mode) == 0 || errno == EEXIST ? 0 : -1;
}

/* --- Fds, signals, children --- */

/*
 * The kernel starts its helpers with fds 0, 1 and 2 closed: fill every
 * hole (with /dev/null, or / when there is no /dev yet), so that no file
 * we open becomes standard input or output. 0, or -1 if nothing opens.
 * (The raw fcntl: a preloaded fault injector must not see it.)
 */
UTIL int sanitize_fds(void)
{
	for (int fd = 0; fd < 3; fd++)  /* a hole is the lowest free fd: open() fills it */
		if (syscall(SYS_fcntl, fd, F_GETFD) < 0 && open("/dev/null", O_RDWR | O_NOCTTY) < 0 &&
		    open("/", O_RDONLY) < 0)
			return -1;
	return 0;
}

/*
 * Close every fd from first up: close_range (Linux 5.9), else one close()
 * per fd below the fd limit, at most 2^20 (a kernel or headers without it). No memory
 * of ours touched: safe after vfork().
 */
UTIL void close_from(int first)
{
	struct rlimit rl;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur > 1 << 20)
		rl.rlim_cur = 1 << 20;  /* no fd above fs.nr_open's default */
	for (int fd = first; fd < (int)rl.rlim_cur; fd++)
		close(fd);
}

/* The kernel's sigset: NSIG - 1 bits, KSIG_BYTES: 8 bytes (16 on MIPS). */
#define KSIG_BYTES ((NSIG + 6) / 8)
typedef unsigned long ksigset[16 / sizeof(long)];
UTIL const unsigned long ksig_zero[8];  /* a sigaction: SIG_DFL, no flags, an empty mask */

/* Signal s back to its default action (the raw call: 32 and 33 too). */
UTIL void sig_default(int s)
{
	syscall(SYS_rt_sigaction, s, ksig_zero, NULL, KSIG_BYTES);
}

/*
 * In a child, before execve: every signal back to its default action and
 * unblocked, fds 3 and up closed (ours are close-on-exec; what our starter
 * left open is not): close_range (Linux 5.9), else one close() per fd up
 * to the fd limit (older kernels and headers). The raw rt_sigaction reaches the signals libc
 * keeps for itself (32, 33), which an ignoring parent may have left
 * ignored; an all-zero kernel sigaction is SIG_DFL, no flags, an empty
 * mask in every architecture's layout (and all zeros are an empty sigset),
 * and the kernel's sigset is 8 bytes (16 on MIPS: NSIG 65 or 129). Safe
 * after vfork(): it touches no memory of ours.
 */
UTIL void child_reset(void)
{
	for (int s = 1; s < NSIG; s++)
		sig_default(s);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, ksig_zero, NULL, KSIG_BYTES);
	close_from(3);
}

/*
 * The one way a program here starts another: vfork(), then in the child
 * fd[0], fd[1] and fd[2] (those >= 0) onto 0, 1 and 2, a session
 * (CHILD_SESSION: no controlling terminal) or a process group
 * (CHILD_GROUP) of its own, SIGKILLed when its parent dies (CHILD_PDEATH,
 * a flag), child_reset(), execve(path, argv, env). A
 * child that cannot run it says "NAME: cannot run PATH: errno ..." on its
 * stderr (say_as(); name NULL: nothing) and exits 127. The child's pid, or -1
 * (errno). Never inlined: the child touches nothing but this frame.
 */
enum { CHILD_SESSION = 1, CHILD_GROUP = 2, CHILD_PDEATH = 4 };

static __attribute__((unused, noinline)) pid_t child_start(const char *path, char *const argv[],
							    char *const env[], const int fd[3], int how,
							    const char *name)
{
	pid_t parent = getpid(), pid = vfork();

	if (pid == 0) {
		int i = 0;

		if (how & CHILD_SESSION)
			setsid();
		else if (how & CHILD_GROUP)
			setpgid(0, 0);
		if (how & CHILD_PDEATH && (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent))
			_exit(127);
		while (i < 3 && (!fd || fd[i] < 0 || dup2(fd[i], i) == i))
			i++;
		if (i == 3) {
			child_reset();
			execve(path, argv, env);
		}
		if (name)
			say_as(name, "cannot run %q%e", path, errno);
		_exit(127);
	}
	return pid;
}

/* --- Numbers and options --- */

/*
 * --help or --version alone on the command line: help (or version, "NAME
 * VERSION\n") on stdout, and exit with ok (the programs of fwload's
 * COMMAND slot say 100: there, 0 would commit the text), or EX_SYSTEM when
 * stdout fails. Any other command line: back.
 */
UTIL void help_version(int argc, char **argv, const char *help, const char *version, int ok)
{
	const char *text = argc != 2 ? NULL : strcmp(argv[1], "--help") == 0 ? help :
			   strcmp(argv[1], "--version") == 0 ? version : NULL;

	if (text)
		exit(write_all(1, text, strlen(text)) < 0 ? EX_SYSTEM : ok);
}

/*
 * A whole decimal number from 0 to max, optionally followed by one of the
 * letters in suffixes (any of "KMG", upper case only: 1024, 1024^2,
 * 1024^3), checked before it can wrap; -1 for anything else (an empty
 * string, a sign, a blank, a second suffix, too large).
 */
UTIL int64_t parse_num(const char *s, int64_t max, const char *suffixes)
{
	int64_t v = 0, m = 1;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (*s && !s[1] && suffixes && strchr(suffixes, *s))
		m = (int64_t)1 << (*s == 'K' ? 10 : *s == 'M' ? 20 : 30), s++;
	return *s || v > max / m ? -1 : v * m;
}

/*
 * getopt(3)'s rules without getopt(3) and its stdio: -ab, -sVAL, -s VAL,
 * "--" ends the options, "-" alone is an operand. spec lists the option
 * letters, a letter followed by ':' takes a value. Returns the letter (and
 * *val for one with a value), '?' for an unknown letter, ':' for a missing
 * value, or -1 at the end: then o->i is the first operand.
 */
struct opts {
	int argc, i;
	char **argv;
	const char *p;  /* the rest of the current cluster, or NULL */
};

UTIL int opt_next(struct opts *o, const char *spec, const char **val)
{
	const char *s;
	char c;

	if (!o->p || !*o->p) {
		if (o->i >= o->argc || o->argv[o->i][0] != '-' || !o->argv[o->i][1])
			return -1;
		if (strcmp(o->argv[o->i], "--") == 0) {
			o->i++;
			return -1;
		}
		o->p = o->argv[o->i++] + 1;
	}
	c = *o->p++;
	if (c == ':' || !(s = strchr(spec, c)))
		return '?';
	if (s[1] != ':')
		return c;
	if (*o->p)
		*val = o->p;
	else if (o->i < o->argc)
		*val = o->argv[o->i++];
	else
		return ':';
	o->p = NULL;
	return c;
}

/* --- Directories and processes --- */

/* A directory's names, read with getdents64 into a buffer of its own (no
 * opendir(), whose malloc a static program need not carry otherwise). */
struct dirbuf {
	int fd;                       /* the directory, or -1 once read to its end */
	size_t pos, len;              /* what of buf is read and not yet seen */
	unsigned long long buf[512];  /* linux_dirent64 records (8-byte aligned) */
};

/* The next name of d, "." and ".." left out; NULL at the end (d->fd is
 * then closed; errno 0, or why it could not be read). d->fd is an open
 * directory, pos and len 0, to begin. */
UTIL const char *dir_next(struct dirbuf *d)
{
	struct dent {
		uint64_t ino;
		int64_t off;
		unsigned short reclen;
		unsigned char type;
		char name[];
	} *e;

	while (d->fd >= 0) {
		if (d->pos >= d->len) {
			long n = syscall(SYS_getdents64, d->fd, d->buf, sizeof(d->buf));

			if (n <= 0) {
				int err = n < 0 ? errno : 0;

				close(d->fd);
				d->fd = -1;
				errno = err;
				break;
			}
			d->pos = 0;
			d->len = (size_t)n;
		}
		e = (struct dent *)(void *)((char *)d->buf + d->pos);
		d->pos += e->reclen;
		if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0)
			return e->name;
	}
	return NULL;
}

/*
 * Field n (as proc(5) numbers them: 3 the state, 4 the parent, 7 the
 * controlling terminal, 22 the start time) of /proc/PID/stat, pid 0 for
 * our own, as a whole number; -1 when there is no such process or field.
 * The name before it, in parentheses, may hold anything, ")" too.
 */
UTIL int64_t proc_stat(int64_t pid, int n)
{
	char path[40], buf[512], *p, *e;
	struct line l = { .len = 0 };
	ssize_t r = -1;
	int fd;

	if (pid)
		line_fmt(&l, "/proc/%d/stat", (long long)pid);
	memcpy(path, pid ? l.buf : "/proc/self/stat", pid ? l.len + 1 : 16);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		r = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[r > 0 ? r : 0] = '\0';
	if (!(p = strrchr(buf, ')')))
		return -1;
	for (int f = 2; f < n; f++)
		if (!(p = strchr(p + 1, ' ')))
			return -1;
	if (n == 3)  /* the state: a letter */
		return p[1] ? (unsigned char)p[1] : -1;
	if ((e = strchr(++p, ' ')))
		*e = '\0';
	return *p == '-' ? -1 : parse_num(p, INT64_MAX, NULL);
}

/* --- Time --- */

/* CLOCK_MONOTONIC in milliseconds (64-bit on 32-bit targets too). */
UTIL int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

#endif
