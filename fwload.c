/* SPDX-License-Identifier: MIT */
/*
 * fwload - answer one Linux firmware request through the sysfs fallback.
 *
 * The kernel makes SYSFS/DEVPATH/{loading,data} and waits for user space:
 *   1. open the request's directory once, loading and data relative to it
 *      (-e: the caller saw it, so not there is answered by another -> 5)
 *   2. never a firmware-upload device (-U: only one, idle: else 5) -> 6
 *   3. lock LOCKDIR/DEV-INO, root's alone: one answerer; held    -> 5
 *   4. open the image safely (never a FIFO or a device, inside the -r
 *      directories); start COMMAND, if any, in a session of its own
 *   5. "1" to loading (read back 0: answered by another -> 5), the image
 *      to data, then "0" (all of it, COMMAND exited 0, the file unchanged)
 *      or "-1"
 *   6. only then unlock and log one line
 * Every path after the lock ends in one "0" or "-1"; a signal that would
 * end us stays blocked and ends the load in "-1". Exit status: 0 loaded
 * (-U: handed over; -O: would be opened), 1 cancelled (-c), 2 aborted (-O:
 * refused), 3 stopped by a signal, 5 busy or answered by another, 6 not a
 * request (-U: not an upload device), 100 usage, 111 system error or no
 * request.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/signalfd.h>
#include "log.h"
#include "request.h"

#ifndef SYS_openat2
#define SYS_openat2 437  /* the generic number, Linux 5.6 */
#endif

enum { LOADED = 0, CANCELLED = 1, ABORTED = 2, STOPPED = 3, BUSY = 5, NOT_REQUEST = 6, GONE = EX_SYSTEM };

static const char usage_text[] =
	"usage: fwload [-ev] [-s SYSFS] [-t WAIT] [-T DEADLINE] [-S MAXSIZE] [-n NAME] [-l LOG]\n"
	"              [-w NOTE] [-k LOCKDIR] [-U] [-r DIR]... DEVPATH FILE|- [COMMAND [ARG]...]\n"
	"       fwload [-ev] [-s SYSFS] [-t WAIT] [-n NAME] [-l LOG] [-w NOTE] [-k LOCKDIR] -c DEVPATH\n"
	"       fwload [-S MAXSIZE] [-r DIR]... -O FILE   (other options: checked, unused)\n"
	"       fwload --help | --version\n"
	"Defaults: WAIT the request's TIMEOUT, else 60; DEADLINE 300; MAXSIZE 256M; LOG kmsg;\n"
	"LOCKDIR: " FWLOAD_RUNDIR "/lock. See fwload(8).\n";

static struct {
	const char *sysfs, *devpath, *name, *image, *source, *log, *note, *lockdir, **roots;
	char *const *cmd;
	int nroots, verbose, upload, seen;
	int64_t wait_s, quiet_s, deadline_s, max_size, start;
} opt = { .sysfs = "/sys", .log = "kmsg", .lockdir = FWLOAD_RUNDIR "/lock", .deadline_s = 300, .max_size = 256 << 20 };

static char req[PATH_MAX];    /* SYSFS/DEVPATH */
static struct line msg;       /* the outcome, said after the answer */
static char child_line[201];  /* COMMAND's first line on stderr */
static size_t child_len;
static int child_err = -1, child_nl, sigfd = -1, chldfd = -1, stop_signal;

/* msg = "NAME: " and the rest. */
static void fail(const char *f, ...)
{
	va_list ap;

	msg.len = 0;
	line_fmt(&msg, "%q: ", opt.name);
	va_start(ap, f);
	line_vfmt(&msg, f, ap);
	va_end(ap);
}

/* To stderr, unless it stays full for a second. */
static void to_stderr(const char *text)
{
	struct line l = { .len = 0 };

	line_fmt(&l, "fwload: %s\n", text);
	(void)stderr_put(l.buf, l.len, 1000);
}

static void usage(const char *why)
{
	to_stderr(why);
	(void)write_all(2, usage_text, sizeof(usage_text) - 1);
	exit(EX_USAGE);
}

static int64_t left_ms(void)
{
	return opt.deadline_s * 1000 - (now_ms() - opt.start);
}

/* --- Signals: every one that would end us stays blocked, pending; each
 * wait wakes on it through a signalfd (without one, every 100 ms), and on
 * SIGCHLD through another. --- */

#define LBITS (8 * sizeof(long))
static ksigset stop_set;

static void block_signals(void)
{
	static const unsigned char go_on[] = { SIGKILL, SIGSTOP, SIGCHLD, SIGCONT, SIGPIPE, SIGURG,
					       SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU };
	static const ksigset chld = { 1UL << (SIGCHLD - 1) };
	ksigset all;

	memset(all, 0xff, sizeof(all));
	memset(stop_set, 0xff, sizeof(stop_set));
	for (size_t i = 0; i < sizeof(go_on); i++)
		stop_set[(go_on[i] - 1) / LBITS] &= ~(1UL << (go_on[i] - 1) % LBITS);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, all, NULL, KSIG_BYTES);
	sigfd = (int)syscall(SYS_signalfd4, -1, stop_set, KSIG_BYTES, SFD_NONBLOCK | SFD_CLOEXEC);
	chldfd = (int)syscall(SYS_signalfd4, -1, chld, KSIG_BYTES, SFD_NONBLOCK | SFD_CLOEXEC);
}

/* The first stop signal pending, or 0. */
static int stopped(void)
{
	ksigset p = { 0 };

	if (!stop_signal && syscall(SYS_rt_sigpending, p, KSIG_BYTES) == 0)
		for (unsigned s = 1; s < NSIG && !stop_signal; s++)
			if (p[(s - 1) / LBITS] & stop_set[(s - 1) / LBITS] & 1UL << (s - 1) % LBITS)
				stop_signal = (int)s;
	return stop_signal;
}

/* poll() n fds of p for up to ms; p has room for the two signalfds. */
static int wait_fds(struct pollfd *p, int n, int64_t ms)
{
	struct signalfd_siginfo drain[4];
	int r;

	p[n] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
	p[n + 1] = (struct pollfd){ .fd = chldfd, .events = POLLIN };
	if ((sigfd < 0 || chldfd < 0) && ms > 100)
		ms = 100;
	r = poll(p, (nfds_t)n + 2, ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms);
	if (r > 0 && p[n + 1].revents)
		while (read(chldfd, drain, sizeof(drain)) > 0)
			;
	return r;
}

/* --- COMMAND: its stdout is the image, its stderr's first line kept. --- */

static void read_child_err(void)
{
	char b[512];
	ssize_t r = read(child_err, b, sizeof(b));

	if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
		close(child_err), child_err = -1;
	for (ssize_t i = 0; i < r && !child_nl; i++)
		if (!(child_nl = b[i] == '\n') && child_len < sizeof(child_line) - 1)
			child_line[child_len++] = b[i];
}

/* COMMAND reading in, in a session of its own, SIGKILLed if we die: its
 * pid and its stdout in *out; 0 with msg set. */
static pid_t start_cmd(int in, int *out)
{
	extern char **environ;
	int o[2] = { -1, -1 }, e[2] = { -1, -1 }, fd[3] = { in, -1, -1 };
	pid_t pid = -1;

	if (syscall(SYS_pipe2, o, O_CLOEXEC) == 0 && syscall(SYS_pipe2, e, O_CLOEXEC) == 0) {
		fd[1] = o[1], fd[2] = e[1];
		pid = child_start(opt.cmd[0], opt.cmd, environ, fd, CHILD_SESSION | CHILD_PDEATH, "");
	}
	if (pid < 0)
		fail("cannot start %q%e", opt.cmd[0], errno);
	close(o[1]), close(e[1]);
	if (pid < 0)
		return close(o[0]), close(e[0]), 0;
	*out = o[0];
	child_err = e[0];
	return pid;
}

/* Has COMMAND ended (its wait status in *ws)? When it has, not yet reaped
 * (its group's number still its own), its whole group is SIGKILLed. */
static int cmd_ended(pid_t pid, int *ws)
{
	static int ended, status;
	siginfo_t si = { .si_pid = 0 };

	if (!ended && waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
		kill(-pid, SIGKILL);
		ended = 1;
		status = si.si_code == CLD_EXITED ? si.si_status << 8 : si.si_status;
	}
	*ws = status;
	return ended;
}

/* Wait up to ms (stop: and no stop signal) for COMMAND to end: its wait
 * status, or -1. */
static int wait_cmd(pid_t pid, int64_t ms, int stop)
{
	int64_t until = now_ms() + ms;
	int ws;

	for (;;) {
		struct pollfd p[3] = { { .fd = child_err, .events = POLLIN } };

		if (cmd_ended(pid, &ws))
			return ws;
		if ((stop && stopped()) || now_ms() >= until)
			return -1;
		if (wait_fds(p, 1, until - now_ms()) > 0 && p[0].revents)
			read_child_err();
	}
}

/* COMMAND's end: SIGTERM, a second to end (fwload-keep ends all it
 * started), then its group SIGKILLed; reaped. */
static void end_cmd(pid_t pid)
{
	kill(pid, SIGTERM);
	if (wait_cmd(pid, 1000, 0) == -1)
		kill(-pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
	if (child_err >= 0)
		close(child_err), child_err = -1;
}

/* --- The copy. --- */

enum fault { OK, F_READ, F_WRITE, F_SHRANK, F_BIG, F_SILENT, F_LATE, F_STOP };

/* Wait for the stream to speak (COMMAND's stderr does not count). */
static enum fault wait_input(int in, pid_t pid)
{
	int64_t quiet_end = now_ms() + opt.quiet_s * 1000, left, quiet;
	int ws;

	for (int r;;) {
		struct pollfd p[4] = { { .fd = in, .events = POLLIN }, { .fd = child_err, .events = POLLIN } };

		if (stopped())
			return F_STOP;
		if ((left = left_ms()) <= 0 || (quiet = quiet_end - now_ms()) <= 0)
			return left <= 0 ? F_LATE : F_SILENT;
		if (pid)  /* COMMAND gone: what it started cannot hold the stream */
			cmd_ended(pid, &ws);
		if ((r = wait_fds(p, 2, left < quiet ? left : quiet)) > 0 && p[1].revents)
			read_child_err();
		if ((r > 0 && p[0].revents) || (r < 0 && errno != EINTR))
			return OK;
	}
}

/*
 * in to data: a file of size bytes (size >= 0) by sendfile() (-U: a MiB a
 * call, its progress seen in /proc/PID/io), a stream (size < 0) by
 * splice(), else read/write; a stream's max_size + 1st byte is F_BIG. *n
 * counts what went to data; errno says why on F_READ and F_WRITE.
 */
static enum fault copy(int in, int data, int64_t size, pid_t pid, int64_t *n)
{
	static char buf[64 * 1024];
	int fast = 1, err;
	enum fault f;
	char c;

	for (*n = 0;;) {
		int64_t left = (size >= 0 ? size : opt.max_size) - *n;
		size_t want = left > (int64_t)sizeof(buf) ? sizeof(buf) : (size_t)left;
		off_t off = (off_t)*n;
		ssize_t r;

		if (size >= 0 && left == 0)
			return OK;
		if (stopped())
			return F_STOP;
		if (left_ms() <= 0)
			return F_LATE;
		if (size < 0 && (f = wait_input(in, pid)) != OK)
			return f;
		if (fast && left > 0) {
			r = size >= 0 ? sendfile(data, in, &off, (size_t)(opt.upload && left > 1 << 20 ? 1 << 20 : left))
				      : splice(in, NULL, data, NULL, want, SPLICE_F_MOVE);
			if (r < 0 && (err = errno) == EINTR)
				continue;
			if (r < 0 && *n == 0 && (err == EINVAL || err == ENOSYS || err == EOPNOTSUPP ||
						 err == EBADF || err == ESPIPE)) {
				fast = 0;  /* not for these files */
				continue;
			}
			if (r < 0)  /* which side failed? for a file, ask the image */
				return size >= 0 && pread(in, &c, 1, off) < 0 ? F_READ : (errno = err, F_WRITE);
		} else {
			r = size >= 0 ? pread(in, buf, want, off) : read(in, buf, want ? want : 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 || (r > 0 && left == 0))
				return r < 0 ? F_READ : F_BIG;
			if (r > 0 && write_all(data, buf, (size_t)r) < 0)
				return F_WRITE;
		}
		if (r == 0)
			return size >= 0 ? F_SHRANK : OK;
		*n += r;
	}
}

/* --- The image. --- */

/*
 * A path resolved by hand (fwload -r's fallback where openat2 cannot):
 * name walked one component at a time, each opened O_PATH|O_NOFOLLOW
 * from the directory before it; a link's text is read from the link
 * opened (never looked up again) and walked in turn, at most 40; a name
 * followed by '/' must be a directory (ENOTDIR). The O_PATH handle of what
 * name leads to, and its real path in real: nothing swapped in meanwhile
 * makes that path name another file.
 * At "/" the next name is opened whole ("/x"), never "/" itself (which
 * qemu-user's -L would take for its prefix).
 */
static int walk_path(const char *name, char *real)
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
		if (c == '/' && !S_ISDIR(st.st_mode)) {  /* "FILE/", "FILE/.": no file, as open(2) says */
			errno = ENOTDIR;
			goto close_fd;
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

/*
 * FILE as an O_PATH handle. With -r DIR...: opened from the DIR its name
 * starts with by openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so that
 * no link leads out, whenever it is swapped in. Where openat2 cannot
 * (ENOSYS: before Linux 5.6, qemu-user; EXDEV: an absolute link, or one
 * that leads out), and for -O (real: its real path wanted): walked
 * (walk_path()), and its real path inside a DIR's.
 */
static int open_path(char *real)
{
	static char here[PATH_MAX], root[PATH_MAX];
	struct { uint64_t flags, mode, resolve; } how = { O_PATH | O_CLOEXEC, 0, 0x08 | 0x02 };
	int p = -1, err = ENOSYS;

	for (int i = 0, d; !real && i < opt.nroots && p < 0 && (err == ENOSYS || err == EXDEV || err == EAGAIN); i++) {
		const char *r = opt.roots[i], *rel = opt.image;

		while (*r && *r == *rel)
			r++, rel++;
		if ((*r && strcmp(r, "/")) || (*rel != '/' && (rel == opt.image || rel[-1] != '/')))
			continue;  /* not under this DIR */
		while (*rel == '/')
			rel++;
		if ((d = open(opt.roots[i], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		p = (int)syscall(SYS_openat2, d, rel, &how, sizeof(how));
		err = errno;
		close(d);
	}
	if (p >= 0)
		return p;
	if (err != ENOSYS && err != EXDEV && err != EAGAIN)
		return fail("cannot open %q%e", opt.image, err), -1;
	real = real ? real : here;
	if ((p = opt.nroots || real != here ? walk_path(opt.image, real) : open(opt.image, O_PATH | O_CLOEXEC)) < 0)
		return fail("cannot open %q%e", opt.image, errno), -1;
	for (int i = 0, r; i < opt.nroots; i++) {
		size_t k;

		if ((r = walk_path(opt.roots[i], root)) < 0)
			continue;
		close(r);
		if ((k = strlen(root)) == 1 || (memcmp(real, root, k) == 0 && real[k] == '/'))
			return p;
	}
	if (!opt.nroots)
		return p;
	fail("%q resolves to %q, outside the firmware directories", opt.image, real);
	return close(p), -1;
}

/* The inode p holds, for reading: through /proc/self/fd; without /proc
 * through its file handle, from FILE's directory on the same file system,
 * never by name. The fd (status in st), or -1 with msg set. */
static int reopen(int p, const struct stat *pre, struct stat *st)
{
	static unsigned long hb[(sizeof(struct file_handle) + 128) / sizeof(long) + 1];
	struct file_handle *h = (struct file_handle *)hb;
	const char *slash = strrchr(opt.image, '/');
	struct line path = { .len = 0 };
	int fd, d, mnt;

	line_fmt(&path, "/proc/self/fd/%d", (long long)p);
	if ((fd = open(path.buf, O_RDONLY | O_NOCTTY | O_CLOEXEC)) < 0 && errno == ENOENT) {
		path.len = 0;
		line_fmt(&path, "%s", slash ? opt.image : ".");
		if (slash)
			path.buf[slash == opt.image ? 1 : slash - opt.image] = '\0';
		h->handle_bytes = 128;
		if ((d = open(path.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
			if (fstat(d, st) == 0 && st->st_dev == pre->st_dev &&
			    name_to_handle_at(p, "", h, &mnt, AT_EMPTY_PATH) == 0)
				fd = open_by_handle_at(d, h, O_RDONLY | O_NOCTTY | O_CLOEXEC);
			close(d);
		}
		if (fd < 0)
			return fail("cannot open %q without /proc%e", opt.image, errno), -1;
	}
	if (fd >= 0 && fstat(fd, st) == 0)
		return fd;
	fail("cannot open %q%e", opt.image, errno);
	if (fd >= 0)
		close(fd);
	return -1;
}

/* FILE: a regular file, not empty, within MAXSIZE, opened by open_path()
 * and reopen(). The fd, or -1 with msg set. */
static int open_image(struct stat *st, char *real)
{
	struct stat pre;
	int fd = -1, p = open_path(real);

	if (p < 0)
		return -1;
	if (fstat(p, &pre) < 0)
		fail("cannot open %q%e", opt.image, errno);
	else if (!S_ISREG(pre.st_mode))
		fail("not a regular file: %q", opt.image);
	else if (pre.st_size == 0)
		fail("empty file %q", opt.image);
	else if (pre.st_size > opt.max_size)
		fail("%q is %d bytes, over the limit of %d", opt.image, (long long)pre.st_size,
		     (long long)opt.max_size);
	else if ((fd = reopen(p, &pre, st)) >= 0 && !same_file(st, &pre))
		fail("file replaced while being opened: %q", opt.image);
	else
		return close(p), fd;
	if (fd >= 0)
		close(fd);
	return close(p), -1;
}

/* --- The request and its lock. --- */

/* loading's fd (*dir: the request's), waiting up to WAIT for it unless -e. */
static int open_request(int *dir)
{
	for (int64_t waited = 0, step = 5;; waited += step, step = step < 100 ? step * 2 : 100) {
		struct pollfd p[2];
		int fd, err;

		if ((*dir = open(req, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
			if ((fd = openat(*dir, "loading", O_RDWR | O_NOCTTY | O_CLOEXEC)) >= 0)
				return fd;
			err = errno;
			close(*dir);
			errno = err;
		}
		if (errno != ENOENT || opt.seen || waited >= opt.wait_s * 1000 || stopped())
			return -1;
		wait_fds(p, 0, step);
	}
}

/*
 * An exclusive flock on LOCKDIR/DEV-INO (request_key()), LOCKDIR made 0700
 * if missing and used only when root's alone. The holder removes the file
 * after its answer; one removed under a new holder is taken again. The
 * lock's fd; -2 held by another; -1 no lock to take (*why; answer anyway).
 */
static int lock_request(int reqdir, int *lockdir, struct line *name, const char **why)
{
	const int dflags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	struct stat a;
	int fd;

	*why = "cannot stat the request";
	if (request_key(reqdir, name) < 0)
		return -1;
	*why = "cannot open the lock directory";
	if ((*lockdir = open(opt.lockdir, dflags)) < 0 && errno == ENOENT) {
		if (mkdir(opt.lockdir, 0700) < 0 && errno == ENOENT && mkdir_parent(opt.lockdir, 0700) == 0)
			(void)mkdir(opt.lockdir, 0700);
		*lockdir = open(opt.lockdir, dflags);
	}
	if (*lockdir < 0)
		return -1;
	*why = "the lock directory is not ours alone";
	if (fstat(*lockdir, &a) < 0 || !ours_alone(&a))
		return -1;
	for (int tries = 0; tries < 10; tries++) {
		*why = "cannot make the lock file";
		fd = openat(*lockdir, name->buf, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			*why = "cannot lock";
			close(fd);
			return errno == EWOULDBLOCK ? -2 : -1;
		}
		if (names_file(fd, *lockdir, name->buf))
			return fd;
		close(fd);
	}
	return -1;
}

static int answer(int loading, const char *value)
{
	return write_all(loading, value, strlen(value));
}

static int gone(void)
{
	return errno == ENODEV || errno == ENOENT;
}

/* The first line of the request's attribute name (at most n - 1 bytes). */
static void read_line(int dir, const char *name, char *buf, size_t n)
{
	int fd = openat(dir, name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ssize_t r = fd < 0 ? 0 : read(fd, buf, n - 1);

	buf[r > 0 ? r : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (fd >= 0)
		close(fd);
}

/* -U: the device idle (status "idle", loading not "1")? Else msg says. */
static int upload_idle(int dir)
{
	char status[32], loading[8];

	read_line(dir, "status", status, sizeof(status));
	read_line(dir, "loading", loading, sizeof(loading));
	if (strcmp(status, "idle") != 0)
		fail("%q is not idle (its status: %q); left alone", opt.devpath, status);
	else if (strcmp(loading, "1") == 0)
		fail("an image is being written to %q (its loading: 1); left alone", opt.devpath);
	return !strcmp(status, "idle") && strcmp(loading, "1");
}

/* --- The load. --- */

struct load { int dir, loading, data, img, in; pid_t pid; };

/* The image changed under us (compared with st as opened)? */
static int changed(const struct load *l, const struct stat *st, int64_t n)
{
	struct stat now;
	char c;

	return fstat(l->img, &now) < 0 || now.st_size != st->st_size || !same_file(&now, st) ||
	       now.st_mtim.tv_sec != st->st_mtim.tv_sec || now.st_mtim.tv_nsec != st->st_mtim.tv_nsec ||
	       now.st_ctim.tv_sec != st->st_ctim.tv_sec || now.st_ctim.tv_nsec != st->st_ctim.tv_nsec ||
	       (!opt.cmd && pread(l->img, &c, 1, (off_t)n) != 0);
}

/* After the lock: the image, COMMAND, "1", the copy. LOADED (commit now),
 * ABORTED, STOPPED, BUSY or GONE, the reason in msg. */
static int load(struct load *l)
{
	static const char *const why[] = { [F_SHRANK] = "file shrank while being copied: %q",
					   [F_BIG] = "more than %d bytes from %q",
					   [F_SILENT] = "nothing for %d s from %q",
					   [F_LATE] = "deadline of %d s passed reading %q" };
	struct stat st;
	int64_t n = 0, left, quiet = opt.quiet_s * 1000;
	int ws = 0;
	enum fault f;
	char c;

	if (strcmp(opt.image, "-") == 0)
		l->in = 0;
	else if ((l->img = l->in = open_image(&st, NULL)) < 0)
		return ABORTED;
	if (opt.cmd && !(l->pid = start_cmd(l->img >= 0 ? l->img : 0, &l->in)))
		return ABORTED;
	if ((l->data = openat(l->dir, "data", O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0)
		return fail("cannot open %q/data%e", req, errno), gone() ? GONE : ABORTED;
	if (answer(l->loading, "1") < 0)
		return fail("cannot start: write 1 to %q/loading%e", req, errno), gone() ? GONE : ABORTED;
	/* answered by another between its unlock and our lock: "1" ignored */
	if (pread(l->loading, &c, 1, 0) == 1 && c == '0')
		return fail("%q was answered by another before this answer; left alone", opt.devpath), BUSY;
	f = copy(l->in, l->data, l->img >= 0 && !l->pid ? st.st_size : -1, l->pid, &n);
	if (l->pid && f == OK && (ws = wait_cmd(l->pid, (left = left_ms()) < quiet ? left : quiet, 1)) == -1)
		f = stopped() ? F_STOP : left < quiet ? F_LATE : F_SILENT;  /* EOF: COMMAND has that long to exit */
	if (f == F_STOP || stopped())
		return fail("stopped by signal %d", (long long)stopped()), STOPPED;
	if (f == F_WRITE)
		return fail("cannot write %q/data%e", req, errno), gone() ? GONE : ABORTED;
	if (f == F_READ)
		fail("cannot read %q%e", opt.source, errno);
	else if (f == F_SHRANK)
		fail(why[f], opt.image);
	else if (f != OK)
		fail(why[f], f == F_BIG ? opt.max_size : f == F_SILENT ? opt.quiet_s : opt.deadline_s, opt.source);
	else if (opt.cmd && ws != 0) {
		fail(WIFEXITED(ws) ? "%q failed (exit status %d) on %q" : "%q killed by signal %d on %q",
		     opt.cmd[0], (long long)(WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws)),
		     l->img >= 0 ? opt.image : "standard input");
		if (child_len)
			line_fmt(&msg, ": %q", child_line);
	} else if (n == 0)
		fail("empty image from %q", opt.source);
	else if (l->img >= 0 && changed(l, &st, n))
		fail("file changed while being copied: %q", opt.image);
	else {
		msg.len = 0;
		line_fmt(&msg, opt.upload ? "handed over %q (%d bytes, %d ms) from %q to %q" :
					    "loaded %q (%d bytes, %d ms) from %q for %q", opt.name, (long long)n,
			 (long long)(now_ms() - opt.start), opt.source, opt.devpath);
		return LOADED;
	}
	return ABORTED;
}

/* Open, kind, lock, the load or the cancel, the one answer, unlock, the
 * line. The exit status. */
static int run(int cancel)
{
	struct load l = { .dir = -1, .data = -1, .img = -1, .in = -1 };
	struct line name = { .len = 0 };
	const char *no_lock = "";
	int status, lock = -1, lockdir = -1;

	if ((l.loading = open_request(&l.dir)) < 0 && opt.seen && errno == ENOENT && !stopped()) {
		fail("%q is gone: answered by another; left alone", opt.devpath);
		status = BUSY;
		goto close_request;
	}
	if (l.loading < 0) {
		fail("no %s: cannot open %q/loading%e%s", opt.upload ? "firmware-upload device" : "request", req,
		     errno, stopped() ? "; stopped by a signal" : "");
		to_stderr(msg.buf);
		log_line(opt.log, "fwload", ERR, msg.buf);
		return stopped() ? STOPPED : EX_SYSTEM;
	}
	if ((request_kind(l.dir) == REQ_UPLOAD) != opt.upload) {
		fail(opt.upload ? "%q is a pending request, not a firmware-upload device: the firmware agent answers it; left alone"
				: "%q is a firmware-upload device, not a request; left alone", opt.devpath);
		status = NOT_REQUEST;
		goto close_request;
	}
	if ((lock = lock_request(l.dir, &lockdir, &name, &no_lock)) == -2) {
		fail("another %s holds %q; left alone", opt.upload ? "upload" : "answerer", opt.devpath);
		status = BUSY;
		goto close_request;
	}
	if (opt.upload && !upload_idle(l.dir)) {  /* under the lock; nothing written */
		status = BUSY;
		goto unlock;
	}
	if (cancel) {
		status = CANCELLED;
		msg.len = 0;
		line_fmt(&msg, "cancelled %q for %q", opt.name, opt.devpath);
	} else if ((status = load(&l)) == LOADED && answer(l.loading, "0") < 0) {
		fail("cannot commit: write 0 to %q/loading%e", req, errno);
		status = gone() ? GONE : ABORTED;
	}
	/* the one answer: "0" is in, or "-1" goes in now */
	if (status == GONE)
		line_fmt(&msg, "; the %s is gone", opt.upload ? "upload" : "request");
	else if (status == ABORTED || status == STOPPED)
		line_fmt(&msg, opt.upload ? "; upload aborted, nothing handed over" : "; request aborted");
	if (status != LOADED && status != BUSY && answer(l.loading, "-1") < 0 && !gone())
		line_fmt(&msg, "; cannot write -1%e", errno);
unlock:
	if (lock >= 0)
		unlinkat(lockdir, name.buf, 0), close(lock);
	else if (status != BUSY)
		line_fmt(&msg, "; answered without a lock (%s %q)", no_lock, opt.lockdir);
	if (opt.note)
		line_fmt(&msg, "; %q", opt.note);
	if (status != BUSY) {  /* BUSY: the other answerer's line says */
		if (status != LOADED || opt.verbose)
			to_stderr(msg.buf);
		log_line(opt.log, "fwload", status == LOADED ? INFO : status == CANCELLED ? WARN : ERR, msg.buf);
	}
	if (l.pid)
		end_cmd(l.pid);
	if (l.in > 0 && l.in != l.img)
		close(l.in);
	if (l.img >= 0)
		close(l.img);
	if (l.data >= 0)
		close(l.data);
	if (lockdir >= 0)
		close(lockdir);
	goto said;
close_request:
	if (opt.note)
		line_fmt(&msg, "; %q", opt.note);
said:
	if (status == BUSY || status == NOT_REQUEST)  /* not ours to answer: stderr only */
		to_stderr(msg.buf);
	if (l.loading >= 0)
		close(l.loading), close(l.dir);
	return status;
}

/* -O FILE: would FILE be opened as an image? Its real path: 0; else 2. */
static int open_only(void)
{
	static char real[PATH_MAX];
	struct line l = { .len = 0 };
	struct stat st;
	int fd;

	if ((fd = open_image(&st, real)) < 0)
		return to_stderr(msg.buf), ABORTED;
	close(fd);
	line_fmt(&l, "%s\n", real);
	return write_all(1, l.buf, l.len) < 0 ? EX_SYSTEM : 0;
}

int main(int argc, char **argv)
{
	const char *val = NULL, *roots[argc];
	static struct line src;
	struct opts o = { .argc = argc, .argv = argv, .i = 1 };
	int c, cancel = 0, only = 0;

	opt.start = now_ms();
	if (!(opt.wait_s = request_timeout(getenv("TIMEOUT"))))
		opt.wait_s = 60;
	if (getenv("SYSFS") && *getenv("SYSFS"))
		opt.sysfs = getenv("SYSFS");
	opt.name = getenv("FIRMWARE");
	opt.roots = roots;
	if (sanitize_fds() < 0)  /* the kernel starts its helper with fds 0-2 closed */
		return EX_SYSTEM;
	sig_default(SIGCHLD);
	help_version(argc, argv, usage_text, "fwload " FWLOAD_VERSION "\n", 0);
	while ((c = opt_next(&o, "cevOUs:t:T:S:n:l:w:r:k:", &val)) != -1) {
		if (c == '?' || c == ':')
			usage(c == '?' ? "unknown option" : "option wants a value");
		else if (c == 'c' || c == 'e' || c == 'v' || c == 'O' || c == 'U')
			*(c == 'c' ? &cancel : c == 'e' ? &opt.seen : c == 'v' ? &opt.verbose : c == 'O' ? &only :
			  &opt.upload) = 1;
		else if (c == 's' || c == 'n' || c == 'w' || c == 'k')
			*(c == 's' ? &opt.sysfs : c == 'n' ? &opt.name : c == 'w' ? &opt.note : &opt.lockdir) = val;
		else if (c == 'r')
			roots[opt.nroots++] = val;
		else if (c == 't' && (opt.wait_s = parse_num(val, 86400, NULL)) < 0)
			usage("-t wants whole seconds, 0 to 86400");
		else if (c == 'T' && (opt.deadline_s = parse_num(val, 86400, NULL)) <= 0)
			usage("-T wants whole seconds, 1 to 86400");
		else if (c == 'S' && (opt.max_size = parse_num(val, (int64_t)2047 << 20, "KMG")) <= 0)
			usage("-S wants a size in bytes (K, M, G suffixes), 1 to 2047M");
		else if (c == 'l' && strcmp(val, "kmsg") && strcmp(val, "syslog") && strcmp(val, "none") && val[0] != '/')
			usage("-l wants kmsg, syslog, none or /FILE");
		else if (c == 'l')
			opt.log = val;
	}
	argc -= o.i;
	argv += o.i;
	if (only && (argc != 1 || cancel || opt.upload))
		usage("-O takes FILE only");
	if (only)
		return opt.image = opt.name = argv[0], open_only();
	if (cancel ? argc != 1 || opt.upload : argc < 2)
		usage(cancel ? "-c takes DEVPATH only" : "want DEVPATH and FILE (or -)");
	if (argv[0][0] != '/' || has_dots(argv[0]))
		usage("DEVPATH must start with / and have no . or .. component");
	if (sysfs_path(req, opt.sysfs, argv[0]) < 0)
		usage("SYSFS/DEVPATH too long");
	if ((argc > 2 && argv[2][0] != '/') || opt.lockdir[0] != '/')
		usage("COMMAND and LOCKDIR must be absolute paths");
	opt.devpath = argv[0];
	opt.image = cancel ? "" : argv[1];
	opt.cmd = argc > 2 ? argv + 2 : NULL;
	if (!opt.name || !*opt.name)
		opt.name = strrchr(opt.devpath, '/')[1] ? strrchr(opt.devpath, '/') + 1 : opt.devpath;
	opt.quiet_s = opt.wait_s ? opt.wait_s : 60;
	line_fmt(&src, opt.cmd ? "%s via %s" : "%s", strcmp(opt.image, "-") ? opt.image : "standard input",
		 opt.cmd ? opt.cmd[0] : "");
	opt.source = src.buf;
	block_signals();  /* from here on the request may be written */
	return run(cancel);
}
