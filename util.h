/* SPDX-License-Identifier: MIT */
/*
 * util.h - the helper layer of fwload's C programs (fwload, hotplugd,
 * fwload-sha256, fwload-extract, fwload-runas, fwload-verify): one name and one contract
 * each, no stdio, libc only. Each program is still one .c file plus this
 * header, so `make CC=musl-gcc fwload` builds it alone; what a program does
 * not call costs nothing (static, unused: dropped by the compiler).
 *
 *   struct line, line_put, line_fmt   one message built in place
 *   line_end                          a log line cut to its sink's limit
 *   write_all                         the one write loop
 *   stderr_put, kmsg_write            stderr bounded; one kernel log record
 *   same_file, names_file             identity: device and inode
 *   root_only                         trust: root's, writable by root alone
 *   mkdir_parent                      a path's directory, made if missing
 *   walk_path                         a path resolved one name at a time
 *   read_attr, sysfs_path             a sysfs attribute's line; SYSFS/DEVPATH
 *   sanitize_fds, close_from          fds 0-2 open; fds from N up closed
 *   sig_default, child_reset          a child's state before execve
 *   say_as                            one line on stderr, as NAME
 *   child_start                       vfork, fds, reset, execve: the one start
 *   log_line                          fwload -l's sinks: syslog, kmsg, /FILE
 *   help_version                      --help and --version
 *   parse_num                         whole numbers, optional K/M/G
 *   opt_next                          getopt(3)'s rules without its stdio
 *   request_kind                      "a pending request" decided once
 *   uevent_keys, KERNEL_PATH          what a child of an event may get
 *   request_key                       a request's identity, "DEV-INO"
 *   pending_open, pending_next        the one lister of pending requests
 *   kill_children                     SIGKILL to every child of ours
 *   now_ms                            the monotonic clock in milliseconds
 *
 * Include it after the feature macros and the system headers below.
 */
#ifndef FWLOAD_UTIL_H
#define FWLOAD_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#ifndef FWLOAD_VERSION
#define FWLOAD_VERSION "unknown"
#endif

#define UTIL static __attribute__((unused))

/* Exit statuses every program shares (skarnet's convention). */
enum { EX_USAGE = 100, EX_SYSTEM = 111 };
/* Log levels, the kernel log's and syslog's. */
enum { ERR = 3, WARN = 4, INFO = 6 };

/* --- Messages --- */

/* One line of text, always NUL-terminated, cut (never overrun) when full. */
struct line {
	char buf[2048];
	size_t len;
};

UTIL void line_put(struct line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
	l->buf[l->len] = '\0';
}

/*
 * Append to l, printf-like, six conversions only:
 *   %s  text as it is (our own words, paths we chose)
 *   %q  text from outside (an event, a file name): control bytes, DEL and
 *       backslashes as \xNN, so no name can forge a second log line
 *   %d  a long long (cast every argument: varargs do not convert); %u and
 *       %o the same taken as unsigned, in decimal and octal; a width
 *       between % and the letter (%9d) pads with zeros in front
 *   %e  an int errno value as ": errno N (ENAME)"; the name for the codes
 *       these programs meet, from <errno.h>'s values (they differ between
 *       architectures); no strerror table in a static binary
 */
UTIL void line_vfmt(struct line *l, const char *f, va_list ap)
{
	static const unsigned short codes[] = {
		EPERM, ENOENT, EINTR, EIO, ENXIO, ENOEXEC, EBADF, EAGAIN, ENOMEM, EACCES,
		EBUSY, EEXIST, ENODEV, ENOTDIR, EISDIR, EINVAL, ENFILE, EMFILE, ETXTBSY, EFBIG,
		ENOSPC, ESPIPE, EROFS, EPIPE, ENAMETOOLONG, ENOSYS, ELOOP, EOVERFLOW, EBADMSG,
		EOPNOTSUPP, ENOBUFS, EADDRINUSE, EAFNOSUPPORT, EPROTONOSUPPORT, ETIMEDOUT, EUCLEAN,
	};
	static const char names[] =
		"EPERM ENOENT EINTR EIO ENXIO ENOEXEC EBADF EAGAIN ENOMEM EACCES "
		"EBUSY EEXIST ENODEV ENOTDIR EISDIR EINVAL ENFILE EMFILE ETXTBSY EFBIG "
		"ENOSPC ESPIPE EROFS EPIPE ENAMETOOLONG ENOSYS ELOOP EOVERFLOW EBADMSG "
		"EOPNOTSUPP ENOBUFS EADDRINUSE EAFNOSUPPORT EPROTONOSUPPORT ETIMEDOUT EUCLEAN ";
	char d[32], *p;
	const char *s;
	int w;

	for (; *f; f++) {
		if (*f != '%') {
			line_put(l, *f);
			continue;
		}
		for (w = 0; *++f >= '0' && *f <= '9';)
			w = w * 10 + (*f - '0');
		if (*f == 's' || *f == 'q') {
			for (s = va_arg(ap, const char *); *s; s++) {
				unsigned char c = (unsigned char)*s;

				if (*f == 'q' && (c < ' ' || c == 0x7f || c == '\\')) {
					line_put(l, '\\');
					line_put(l, 'x');
					line_put(l, "0123456789abcdef"[c >> 4]);
					c = (unsigned char)"0123456789abcdef"[c & 15];
				}
				line_put(l, (char)c);
			}
		} else if (*f == 'd' || *f == 'u' || *f == 'o' || *f == 'e') {
			long long v = *f == 'e' ? va_arg(ap, int) : va_arg(ap, long long);
			int neg = v < 0 && (*f == 'd' || *f == 'e');
			unsigned long long u = neg ? -(unsigned long long)v : (unsigned long long)v;
			unsigned base = *f == 'o' ? 8 : 10;

			*(p = d + sizeof(d) - 1) = '\0';
			do
				*--p = (char)('0' + u % base);
			while (((u /= base) || d + sizeof(d) - 1 - p < w) && p > d + 9);  /* room: sign, ": errno " */
			if (neg)
				*--p = '-';
			if (*f == 'e')
				p = memcpy(p - 8, ": errno ", 8);
			for (; *p; p++)
				line_put(l, *p);
			s = names;
			for (size_t i = 0; *f == 'e' && i < sizeof(codes) / sizeof(codes[0]); i++, s = strchr(s, ' ') + 1)
				if (codes[i] == v) {
					line_put(l, ' ');
					line_put(l, '(');
					while (*s != ' ')
						line_put(l, *s++);
					line_put(l, ')');
					break;
				}
		} else if (*f == '\0') {
			break;
		}
	}
}

UTIL void line_fmt(struct line *l, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	line_vfmt(l, f, ap);
	va_end(ap);
}

/*
 * The end of a log line for a sink that takes at most max bytes: cut to
 * max - 1 (and "..." in its last three, to say so), then the newline.
 */
UTIL void line_end(struct line *l, size_t max)
{
	if (l->len > max - 1)
		memcpy(l->buf + (l->len = max - 1) - 3, "...", 4);
	line_put(l, '\n');
}

/* --- I/O --- */

/*
 * Write all n bytes: retried on EINTR, continued after a short write (on
 * sysfs one page per call is normal). 0, or -1 with errno set (EIO when
 * the file took nothing).
 */
UTIL int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w == 0 ? (errno = EIO, -1) : -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * n bytes to stderr once poll() says it has room, waited for ms at most: a
 * log pipe nobody reads must never hold us (a line shorter than PIPE_BUF
 * then goes in whole, without blocking). 1 if written, 0 if not.
 */
UTIL int stderr_put(const char *buf, size_t n, int ms)
{
	struct pollfd p = { .fd = 2, .events = POLLOUT };

	if (poll(&p, 1, ms) != 1 || (p.revents & (POLLERR | POLLNVAL)))
		return 0;
	(void)write_all(2, buf, n);
	return 1;
}

/*
 * One record to the kernel log, "<LEVEL>NAME: text\n" (fwload's and
 * hotplugd's say()), at most KMSG_MAX bytes with its newline (line_end():
 * the kernel refuses a longer write whole), to /dev/kmsg opened
 * non-blocking: never waited for. 0, or -1 (no kmsg).
 */
#define KMSG_MAX 976

UTIL int kmsg_write(const char *buf, size_t n)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	(void)!write(fd, buf, n);
	close(fd);
	return 0;
}

/* --- Files --- */

/* Are a and b the same file (device and inode)? */
UTIL int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Is st root's (uid 0), with no write permission for group or others? */
UTIL int root_only(const struct stat *st)
{
	return st->st_uid == 0 && (st->st_mode & 022) == 0;
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

/*
 * A path resolved by hand (fwload -r's fallback where openat2 cannot):
 * name walked one component at a time, each opened O_PATH|O_NOFOLLOW
 * from the directory before it; a link's text is read from the link
 * opened (never looked up again) and walked in turn, at most 40. The O_PATH handle of what name leads to, and its real path in
 * real: nothing swapped in meanwhile makes that path name another file.
 * At "/" the next name is opened whole ("/x"), never "/" itself (which
 * qemu-user's -L would take for its prefix).
 */
UTIL int walk_path(const char *name, char *real)
{
	static char todo[PATH_MAX], link[PATH_MAX];
	size_t len = 0;
	int d = AT_FDCWD, fd = -1, links = 0, dots;
	char *p = todo, *end, c;
	struct stat st;
	ssize_t n;

	if ((n = (ssize_t)strlen(name)) >= (ssize_t)sizeof(todo))
		return errno = ENAMETOOLONG, -1;
	memcpy(todo, name, (size_t)n + 1);
	if (*p != '/') {  /* from the working directory (the raw call: no malloc) */
		if (syscall(SYS_getcwd, real, PATH_MAX) < 0 || real[0] != '/' ||
		    (d = open(".", O_PATH | O_CLOEXEC)) < 0)
			return -1;
		len = real[1] ? strlen(real) : 0;
	}
	while (*p) {
		if (*p == '/' && p++)
			continue;
		c = *(end = strchrnul(p, '/'));
		*end = '\0';
		dots = strcmp(p, ".") == 0 ? 1 : strcmp(p, "..") == 0 ? 2 : 0;
		if (dots == 1 || (dots == 2 && d == AT_FDCWD)) {  /* "/.." is "/" */
			*end = c, p = end;
			continue;
		}
		fd = openat(d, d == AT_FDCWD ? p - 1 : p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		*end = c;
		if (fd < 0 || fstat(fd, &st) < 0)
			goto close_fd;
		if (S_ISLNK(st.st_mode)) {  /* its text, then the rest; relative to "/" there */
			if ((n = readlinkat(fd, "", link + 1, sizeof(link) - 2)) < 0)
				goto close_fd;
			if (n == 0 || ++links > 40 || (size_t)n + 1 + strlen(end) >= sizeof(link)) {
				errno = n == 0 ? ENOENT : links > 40 ? ELOOP : ENAMETOOLONG;
				goto close_fd;
			}
			close(fd);
			link[0] = '/';
			memcpy(link + 1 + n, end, strlen(end) + 1);
			n = link[1] == '/' || d != AT_FDCWD;  /* "/" in front, or not */
			memcpy(p = todo, link + n, strlen(link + n) + 1);
			if (*p == '/' && d != AT_FDCWD)
				close(d), d = AT_FDCWD, len = 0;
			continue;
		}
		if (dots == 2) {
			while (len > 0 && real[--len] != '/')
				;
		} else if (len + 1 + (size_t)(end - p) < PATH_MAX) {
			real[len++] = '/';
			memcpy(real + len, p, (size_t)(end - p));
			len += (size_t)(end - p);
		} else {
			errno = ENAMETOOLONG;
			goto close_fd;
		}
		if (d != AT_FDCWD)
			close(d);
		d = fd, p = end;
	}
	if (len == 0)
		real[len++] = '/';
	real[len] = '\0';
	return d == AT_FDCWD ? open("/", O_PATH | O_CLOEXEC) : d;
close_fd:
	if (fd >= 0)
		close(fd);
	if (d != AT_FDCWD)
		close(d);
	return -1;
}

/* An attribute of dir, its first line (at most n - 1 bytes), or "". */
UTIL void read_attr(int dir, const char *attr, char *buf, size_t n)
{
	int fd = openat(dir, attr, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ssize_t r = fd < 0 ? -1 : read(fd, buf, n - 1);
	char *nl;

	buf[r < 0 ? 0 : r] = '\0';
	if (r > 0 && (nl = memchr(buf, '\n', (size_t)r)))
		*nl = '\0';
	if (fd >= 0)
		close(fd);
}

/* SYSFS/DEVPATH in path (PATH_MAX bytes): 0, or -1 when too long. */
UTIL int sysfs_path(char *path, const char *sysfs, const char *devpath)
{
	size_t s = strlen(sysfs), d = strlen(devpath);

	if (s + d >= PATH_MAX)
		return -1;
	memcpy(path, sysfs, s);
	memcpy(path + s, devpath, d + 1);
	return 0;
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
 * One line on standard error: NAME ": " (none for "") and line_fmt's f,
 * for the programs whose one sink it is (fwload-sha256, fwload-extract,
 * fwload-runas: each defines say() as say_as() with its name), and for
 * child_start()'s child.
 */
UTIL void say_as(const char *name, const char *f, ...)
{
	struct line l;
	va_list ap;

	l.len = strlen(name);  /* a program's name: short */
	memcpy(l.buf, name, l.len);
	if (l.len) {
		memcpy(l.buf + l.len, ": ", 2);
		l.len += 2;
	}
	va_start(ap, f);
	line_vfmt(&l, f, ap);
	va_end(ap);
	line_put(&l, '\n');
	(void)write_all(2, l.buf, l.len);
}

/*
 * The one way a program here starts another: vfork(), then in the child
 * fd[0], fd[1] and fd[2] (those >= 0) onto 0, 1 and 2, a session
 * (CHILD_SESSION: no controlling terminal) or a process group
 * (CHILD_GROUP) of its own, child_reset(), execve(path, argv, env). A
 * child that cannot run it says "NAME: cannot run PATH: errno ..." on its
 * stderr (say_as(); name NULL: nothing) and exits 127. The child's pid, or -1
 * (errno). Never inlined: the child touches nothing but this frame.
 */
enum { CHILD_SESSION = 1, CHILD_GROUP = 2 };

static __attribute__((unused, noinline)) pid_t child_start(const char *path, char *const argv[],
							    char *const env[], const int fd[3], int how,
							    const char *name)
{
	pid_t pid = vfork();

	if (pid == 0) {
		int i = 0;

		if (how == CHILD_SESSION)
			setsid();
		else if (how == CHILD_GROUP)
			setpgid(0, 0);
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

/* --- The log --- */

/* The log file's writer (log_line's child): it holds nothing but the pipe
 * its exit closes. */
struct log_file {
	const char *path;
	int pipe_end;
	struct line l;
};

UTIL int log_file_write(void *arg)
{
	struct log_file *f = arg;
	struct stat st;
	int fd;

	dup2(f->pipe_end, 0);
	close_from(1);
	fd = open(f->path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1)
		(void)write_all(fd, f->l.buf, f->l.len);
	_exit(0);
}

/*
 * One line to the log sink (fwload -l), as NAME at level says text:
 * "syslog", a non-blocking datagram to /dev/log, "<8*3+LEVEL>NAME[PID]:
 * text"; "kmsg", kmsg_write() (the line cut to KMSG_MAX with "..."); /FILE,
 * a regular file with one link, never through a link, "NAME: text\n",
 * written by a child waited for one second at most (a frozen file system
 * keeps the child, not us; clone(): fork's semantics without fork's
 * locks); anything else ("none"): nothing.
 */
UTIL void log_line(const char *sink, const char *name, int level, const char *text)
{
	static long long stack[2048];  /* the writer's */
	static struct log_file f;
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
	size_t max = strcmp(sink, "kmsg") ? sizeof(f.l.buf) - 1 : KMSG_MAX;
	int fd = -1, p[2];
	pid_t pid;

	f.l.len = 0;
	if (strcmp(sink, "syslog") == 0) {
		line_fmt(&f.l, "<%d>%s[%d]: %s", 24LL + level, name, (long long)getpid(), text);
		if ((fd = (int)syscall(SYS_socket, AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) >= 0)
			(void)!sendto(fd, f.l.buf, f.l.len, MSG_DONTWAIT | MSG_NOSIGNAL,
				      (struct sockaddr *)&sa, sizeof(sa));
	} else {
		if (max == KMSG_MAX)
			line_fmt(&f.l, "<%d>", (long long)level);
		line_fmt(&f.l, "%s: %s", name, text);
		line_end(&f.l, max);
		if (max == KMSG_MAX) {
			(void)kmsg_write(f.l.buf, f.l.len);
		} else if (sink[0] == '/' && syscall(SYS_pipe2, p, O_CLOEXEC) == 0) {
			struct pollfd done = { .fd = p[0], .events = POLLIN };

			f.path = sink;
			f.pipe_end = p[1];
			pid = clone(log_file_write, stack + 2048, SIGCHLD, &f);
			close(p[1]);
			if (pid > 0 && poll(&done, 1, 1000) == 1)  /* its exit closed the pipe */
				waitpid(pid, NULL, 0);
			close(p[0]);
		}
	}
	if (fd >= 0)
		close(fd);
}

/* --- Numbers and options --- */

/*
 * --help or --version alone on the command line: help (or version, "NAME
 * VERSION\n") on stdout, and exit with ok (fwload-sha256, fwload-extract
 * and fwload-runas say 100: in fwload's COMMAND slot, 0 would commit the
 * text), or EX_SYSTEM when stdout fails. Any other command line: back.
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

/* --- The request --- */

/*
 * What the directory dirfd holds, the one definition of "a pending
 * request" in C (fwload-lib.sh has the shell's): REQ_PENDING when it has
 * "loading" and no "remaining_size"; REQ_UPLOAD for a firmware-upload
 * device (it has both: writing to it starts a flash, so it is never
 * answered); REQ_NONE otherwise.
 */
enum { REQ_NONE, REQ_PENDING, REQ_UPLOAD };

UTIL int request_kind(int dirfd)
{
	struct stat st;

	if (fstatat(dirfd, "loading", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return REQ_NONE;
	if (fstatat(dirfd, "remaining_size", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return REQ_UPLOAD;
	return REQ_PENDING;
}

/* --- An event's child --- */

/*
 * The variables a program run for an event may get, in the kernel's
 * order: a firmware event's (the first FIRMWARE_KEYS), then the device
 * keys the kernel sends for other subsystems and busybox mdev or an
 * mdev.conf rule reads (MAJOR, MINOR and DEVNAME to make the node;
 * MODALIAS for modprobe; ...). Nothing else ever: not LD_PRELOAD, IFS,
 * ENV, BASH_ENV, HOTPLUG_DIR, FWLOAD_*, nor an administrator's tokens.
 * hotplugd gives its children these (a firmware event's keys alone for
 * one); fwload-runas a run= program the firmware keys. HOME=/ and
 * KERNEL_PATH follow, as the kernel gives its uevent helper.
 */
#define FIRMWARE_KEYS 7
UTIL const char *const uevent_keys[] = {
	"ACTION", "DEVPATH", "SUBSYSTEM", "FIRMWARE", "TIMEOUT", "ASYNC", "SEQNUM",
	"MAJOR", "MINOR", "DEVNAME", "DEVTYPE", "DEVMODE", "DEVUID", "DEVGID", "MODALIAS",
	"DRIVER", "INTERFACE", "IFINDEX", "PRODUCT", "TYPE", "BUSNUM", "DEVNUM", "PARTN",
	"PARTNAME", "DISKSEQ",
};
#define KERNEL_PATH "PATH=/sbin:/bin:/usr/sbin:/usr/bin"
/*
 * A request's key: "DEV-INO", the device and inode numbers of its kernfs
 * directory dirfd (a new request at the same DEVPATH is a new node, with a
 * new key). The name of fwload's lock file and of the agent's hold record.
 * 0, or -1 (errno set).
 */
UTIL int request_key(int dirfd, struct line *key)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return -1;
	line_fmt(key, "%u-%u", (long long)st.st_dev, (long long)st.st_ino);
	return 0;
}

/* A getdents64 record (linux_dirent64). */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * The pending requests, one at a time: the one lister (hotplugd's rescan,
 * and fwload -P for fwloadctl's rescan, settle and status). Every name in
 * SYSFS/class/firmware/ but . and .., in directory order (getdents64 into
 * a buffer of its own: no opendir(), whose malloc a static fwload does not
 * otherwise carry); each request is a link there, "../../devices/...",
 * whose target past "../.." is its DEVPATH (the kernel's class links are
 * relative: one with a "." or ".." component further on is skipped); a
 * pending request by request_kind() (never a firmware-upload device); its
 * uevent file read whole, as the kernel writes it
 * ("FIRMWARE=%s\nTIMEOUT=%d\nASYNC=%d\n", drivers/base/firmware_loader/
 * sysfs.c): the name is everything between "FIRMWARE=" and the last two
 * lines, newlines and all (a driver may build it from device data), cut in
 * place into the strings "FIRMWARE=NAME", "TIMEOUT=N" and "ASYNC=N". A file
 * of another shape leaves name, timeout and async NULL (not guessed at).
 * The directory stays open between two calls (dir, or -1 once read to its
 * end): a caller with no job slot free reads on later from where it was.
 */
struct pending {
	int dir;                    /* SYSFS/class/firmware, or -1 */
	size_t pos, len;            /* what of buf is read and not yet seen */
	unsigned long long buf[512];  /* getdents64's records (8-byte aligned) */
	char devpath[PATH_MAX];     /* the request's DEVPATH */
	size_t devpath_len;
	char file[4096];            /* its uevent file, cut in place */
	size_t file_len;
	char *name, *timeout, *async;
};

/* Has the path a "." or ".." component? */
UTIL int has_dots(const char *p)
{
	for (; (p = strchr(p, '/')); p++)
		if (p[1] == '.' && (!p[2] || p[2] == '/' || (p[2] == '.' && (!p[3] || p[3] == '/'))))
			return 1;
	return 0;
}

/* Where key ("\nKEY=") starts in f when f ends, at end, in key, digits and
 * a newline; or NULL. */
UTIL char *uevent_tail(char *f, char *end, const char *key)
{
	size_t k = strlen(key);
	char *d;

	if (end - f < 2 || end[-1] != '\n')
		return NULL;
	for (d = end - 1; d > f && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (d == end - 1 || (size_t)(d - f) < k || memcmp(d - k, key, k) != 0)
		return NULL;
	return d - k;
}

/* SYSFS/class/firmware/ opened for pending_next(): 0, or -1 (errno; ENOENT:
 * no sysfs fallback in this kernel). */
UTIL int pending_open(struct pending *p, const char *sysfs)
{
	struct line path = { .len = 0 };

	line_fmt(&path, "%s/class/firmware", sysfs);
	p->pos = p->len = 0;
	if (path.len >= sizeof(path.buf) - 1)
		return p->dir = -1, errno = ENAMETOOLONG, -1;
	p->dir = open(path.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return p->dir < 0 ? -1 : 0;
}

/* The next pending request in p: 1; 0 when there is none left (the
 * directory is closed). */
UTIL int pending_next(struct pending *p)
{
	struct dent64 *d;

	while (p->dir >= 0) {
		char *f = p->file, *a, *t;
		ssize_t l, r = -1;
		int fd, u;

		if (p->pos >= p->len) {
			long n = syscall(SYS_getdents64, p->dir, p->buf, sizeof(p->buf));

			if (n <= 0) {
				close(p->dir);
				p->dir = -1;
				break;
			}
			p->pos = 0;
			p->len = (size_t)n;
		}
		d = (struct dent64 *)(void *)((char *)p->buf + p->pos);
		p->pos += d->reclen;
		if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
			continue;
		l = readlinkat(p->dir, d->name, p->devpath, sizeof(p->devpath) - 1);
		if (l < 15 || (size_t)l == sizeof(p->devpath) - 1)  /* (cut: no whole DEVPATH) */
			continue;
		p->devpath[l] = '\0';
		if (strncmp(p->devpath, "../../devices/", 14) != 0 || has_dots(p->devpath + 5) ||
		    (fd = openat(p->dir, d->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		if (request_kind(fd) == REQ_PENDING &&
		    (u = openat(fd, "uevent", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) >= 0) {
			r = read(u, f, sizeof(p->file) - 1);
			close(u);
		}
		close(fd);
		if (r < 0)
			continue;  /* not a request, or answered meanwhile */
		memmove(p->devpath, p->devpath + 5, (size_t)l - 4);
		p->devpath_len = (size_t)l - 5;
		f[r] = '\0';
		p->file_len = (size_t)r;
		a = uevent_tail(f, f + r, "\nASYNC=");
		t = a ? uevent_tail(f, a + 1, "\nTIMEOUT=") : NULL;
		p->name = p->timeout = p->async = NULL;
		if (t && t >= f + 9 && memcmp(f, "FIRMWARE=", 9) == 0 && !memchr(f, '\0', (size_t)r)) {
			*t = *a = f[r - 1] = '\0';
			p->name = f;
			p->timeout = t + 1;
			p->async = a + 1;
		}
		return 1;
	}
	return 0;
}

/* --- Processes --- */

/*
 * Our children, each SIGKILLed: /proc read for the processes whose parent
 * is us (fwload's COMMAND keeper, a subreaper: what COMMAND started, in
 * whatever session, comes to it as its parents die). A child's pid stays
 * ours until we reap it: never another's.
 */
UTIL void kill_children(void)
{
	unsigned long long buf[512];  /* getdents64's records (8-byte aligned) */
	char st[128], *p, *e;
	int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	long n, pos;
	int64_t me = getpid(), pid;
	ssize_t r;

	while (dir >= 0 && (n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0)
		for (pos = 0; pos < n; pos += ((struct dent64 *)(void *)((char *)buf + pos))->reclen) {
			struct dent64 *d = (struct dent64 *)(void *)((char *)buf + pos);
			struct line path = { .len = 0 };

			if (d->name[0] < '1' || d->name[0] > '9')
				continue;
			line_fmt(&path, "%s/stat", d->name);
			if ((fd = openat(dir, path.buf, O_RDONLY | O_CLOEXEC)) < 0)
				continue;
			r = read(fd, st, sizeof(st) - 1);
			close(fd);
			/* "PID (COMM) S PPID ...": COMM may hold anything, ")" too */
			st[r > 0 ? r : 0] = '\0';
			if (!(p = strrchr(st, ')')) || p[1] != ' ' || !p[2] || p[3] != ' ' || !(e = strchr(p + 4, ' ')))
				continue;
			*e = '\0';
			if (parse_num(p + 4, INT32_MAX, NULL) == me && (pid = parse_num(d->name, INT32_MAX, NULL)) > 0)
				kill((pid_t)pid, SIGKILL);
		}
	if (dir >= 0)
		close(dir);
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
