/* SPDX-License-Identifier: MIT */
/*
 * fwload - answer one Linux firmware request through the sysfs fallback.
 *
 * The kernel makes SYSFS/DEVPATH/{loading,data} and waits for user space:
 *
 *   1. open the request's directory once; loading and data relative to it
 *      (a request replaced at the same DEVPATH is never written to)
 *   2. leave firmware-upload devices alone (they have remaining_size):
 *      writing to them starts a flash                            -> exit 6
 *   3. flock(loading): one answerer per request; held elsewhere -> exit 5
 *   4. open the image (never a FIFO or a device: O_PATH, fstat, reopen),
 *      check its size and the -r directories, start COMMAND if any
 *   5. write "1" to loading, the image to data (one page per write: loop)
 *   6. write "0" (whole image, COMMAND exited 0, file unchanged) or "-1"
 *   7. only then log the outcome: one line, to sinks that cannot block
 *
 * Every path after the lock ends in exactly one "0" or "-1". Exit status:
 * 0 loaded, 1 cancelled (-c), 2 aborted, 3 stopped by a signal, 5 busy,
 * 6 not a request, 7 configuration changed (-K: nothing written), 100 usage,
 * 111 system error or no request to answer.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#ifndef FWLOAD_VERSION
#define FWLOAD_VERSION "unknown"
#endif

enum { LOADED = 0, CANCELLED = 1, ABORTED = 2, STOPPED = 3, BUSY = 5, NOT_REQUEST = 6,
       CHANGED = 7, USAGE = 100, SYSTEM = 111 };
enum { ERR = 3, WARN = 4, INFO = 6 };  /* kmsg and syslog levels */

static const char usage_text[] =
	"usage: fwload [-v] [-s SYSFS] [-t WAIT] [-T DEADLINE] [-S MAXSIZE] [-n NAME] [-l LOG] [-w NOTE]\n"
	"              [-K CACHE] [-r DIR]... DEVPATH FILE|- [COMMAND [ARG]...]\n"
	"       fwload [-v] [-s SYSFS] [-t WAIT] [-n NAME] [-l LOG] [-w NOTE] [-K CACHE] -c DEVPATH\n"
	"       fwload [-l LOG] -L MESSAGE\n"
	"       fwload -I PATH...    (a configuration cache's stamp)\n"
	"       fwload [-v] -K CACHE (exit 0 fresh, 7 stale)\n"
	"       fwload --help | --version\n"
	"WAIT: seconds for the request to appear (TIMEOUT, else 60), and the most a\n"
	"stream may stay silent. DEADLINE: seconds for the whole load (300).\n"
	"MAXSIZE: bytes, K/M/G (256M). LOG: kmsg (default), syslog, none, /FILE.\n"
	"COMMAND: an absolute path; its output is the image.\n";

static struct {
	const char *sysfs, *devpath, *name, *image, *source, *log, *note, **roots;
	char *const *cmd;  /* COMMAND [ARG]...: its output is the image */
	int nroots, verbose;
	long wait_s, quiet_s, deadline_s;
	int64_t max_size;
	struct timespec start;
} opt;

static volatile sig_atomic_t stop_signal;
static const int stop_sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
				 SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR };
static sigset_t no_sigs;
static char req[PATH_MAX];  /* SYSFS/DEVPATH */
static char child_line[201];  /* COMMAND's first line on stderr */
static size_t child_len;
static int child_err = -1, child_nl;

/* --- Messages: no stdio; names escaped; one line each. --- */

struct line { char buf[2048]; size_t len; };
static struct line msg;  /* the outcome, said after the answer */

static void put(struct line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
	l->buf[l->len] = '\0';
}

/*
 * Append to l: %s text; %q text with control bytes and backslashes as \xNN
 * (a name cannot forge a log line); %d a long long; %e ": errno N (ENAME)"
 * for the few codes that occur here (no strerror table).
 */
static void vfmt(struct line *l, const char *f, va_list ap)
{
	/* The codes from <errno.h> (they differ between architectures), their
	 * names in the same order, each ended by a blank. */
	static const unsigned char codes[] = {
		EPERM, ENOENT, EINTR, EIO, ENXIO, ENOEXEC, EAGAIN, ENOMEM, EACCES, EBUSY,
		ENODEV, ENOTDIR, EISDIR, EINVAL, EMFILE, ETXTBSY, EFBIG, ENOSPC, EROFS,
		ENAMETOOLONG, ELOOP, EOVERFLOW, ETIMEDOUT,
	};
	static const char names[] =
		"EPERM ENOENT EINTR EIO ENXIO ENOEXEC EAGAIN ENOMEM EACCES EBUSY "
		"ENODEV ENOTDIR EISDIR EINVAL EMFILE ETXTBSY EFBIG ENOSPC EROFS "
		"ENAMETOOLONG ELOOP EOVERFLOW ETIMEDOUT ";
	char d[24], *p;

	for (; *f; f++) {
		if (*f != '%') {
			put(l, *f);
		} else if (*++f == 's' || *f == 'q') {
			for (const char *s = va_arg(ap, const char *); *s; s++) {
				unsigned char c = (unsigned char)*s;

				if (*f == 'q' && (c < ' ' || c == 0x7f || c == '\\')) {
					put(l, '\\');
					put(l, 'x');
					put(l, "0123456789abcdef"[c >> 4]);
					put(l, "0123456789abcdef"[c & 15]);
				} else {
					put(l, *s);
				}
			}
		} else if (*f == 'd' || *f == 'e') {
			long long v = *f == 'd' ? va_arg(ap, long long) : va_arg(ap, int);
			unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;

			*(p = d + sizeof(d) - 1) = '\0';
			do
				*--p = (char)('0' + u % 10);
			while (u /= 10);
			if (v < 0)
				*--p = '-';
			for (const char *s = ": errno "; *f == 'e' && *s; s++)
				put(l, *s);
			for (; *p; p++)
				put(l, *p);
			p = (char *)names;
			for (size_t i = 0; *f == 'e' && i < sizeof(codes); i++, p = strchr(p, ' ') + 1)
				if (codes[i] == v) {
					put(l, ' ');
					put(l, '(');
					while (*p != ' ')
						put(l, *p++);
					put(l, ')');
					break;
				}
		}
	}
}

static void fmt(struct line *l, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vfmt(l, f, ap);
	va_end(ap);
}

/* msg = "NAME: " and the rest. */
static void fail(const char *f, ...)
{
	va_list ap;

	msg.len = 0;
	fmt(&msg, "%q: ", opt.name);
	va_start(ap, f);
	vfmt(&msg, f, ap);
	va_end(ap);
}

static int write_all(int fd, const char *p, size_t n)
{
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

/* stderr, unless it stays full for a second (a stuck pipe must not hang us). */
static void to_stderr(const char *text)
{
	struct pollfd p = { .fd = 2, .events = POLLOUT };
	struct line l = { .len = 0 };

	fmt(&l, "fwload: %s\n", text);
	if (poll(&p, 1, 1000) == 1 && !(p.revents & (POLLERR | POLLNVAL)))
		(void)write_all(2, l.buf, l.len);
}

/*
 * One line to the log, through a sink that can neither block nor be
 * redirected: /dev/kmsg opened O_NONBLOCK, the line cut to 976 bytes with
 * "..." (the kernel refuses a longer write whole); a non-blocking datagram
 * to /dev/log; a regular file opened O_NOFOLLOW|O_NONBLOCK, not a FIFO.
 */
static void say(int level, const char *text, int to_err)
{
	struct line l = { .len = 0 };
	struct stat st;
	int fd = -1;

	if (to_err || opt.verbose)
		to_stderr(text);
	if (strcmp(opt.log, "kmsg") == 0) {
		fmt(&l, "<%d>fwload: %s", (long long)level, text);
		if (l.len > 976 - 1)
			memcpy(l.buf + (l.len = 976 - 1) - 3, "...", 4);
		put(&l, '\n');
		fd = open("/dev/kmsg", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0)
			(void)!write(fd, l.buf, l.len);
	} else if (strcmp(opt.log, "syslog") == 0) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };

		fmt(&l, "<%d>fwload[%d]: %s", 24LL + level, (long long)getpid(), text);
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd >= 0)
			(void)!sendto(fd, l.buf, l.len, MSG_DONTWAIT | MSG_NOSIGNAL,
				      (struct sockaddr *)&sa, sizeof(sa));
	} else if (opt.log[0] == '/') {
		fmt(&l, "fwload: %s", text);
		if (l.len > sizeof(l.buf) - 2)  /* cut, and say so: the newline must fit */
			memcpy(l.buf + (l.len = sizeof(l.buf) - 2) - 3, "...", 4);
		put(&l, '\n');
		fd = open(opt.log, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			  O_NOCTTY | O_CLOEXEC, 0644);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1)
			(void)write_all(fd, l.buf, l.len);
	}
	if (fd >= 0)
		close(fd);
}

static void usage(const char *why)
{
	struct line l = { .len = 0 };

	fmt(&l, "fwload: %s\n%s", why, usage_text);
	(void)write_all(2, l.buf, l.len);
	exit(USAGE);
}

/* --- Time and signals. --- */

static int64_t elapsed_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - opt.start.tv_sec) * 1000 +
	       (now.tv_nsec - opt.start.tv_nsec) / 1000000;
}

static int64_t left_ms(void)
{
	return opt.deadline_s * 1000 - elapsed_ms();
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* The stop signals stay blocked except inside ppoll(): no race between a
 * check and a wait. A signal still pending counts too. */
static int stopped(void)
{
	sigset_t p;

	if (!stop_signal && sigpending(&p) == 0)
		for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
			if (sigismember(&p, stop_sigs[i]))
				stop_signal = stop_sigs[i];
	return stop_signal;
}

/* Wait up to ms, signals let through, for one of n fds to be readable. */
static int wait_fds(struct pollfd *p, int n, int64_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 };

	return ppoll(p, (nfds_t)n, &ts, &no_sigs);
}

/* --- COMMAND: its stdout is the image; the first line of its stderr is kept. --- */

static void read_child_err(void)
{
	char b[512];
	ssize_t r = read(child_err, b, sizeof(b));

	if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
		close(child_err);
		child_err = -1;
	}
	for (ssize_t i = 0; i < r && !child_nl; i++)
		if (!(child_nl = b[i] == '\n') && child_len < sizeof(child_line) - 1)
			child_line[child_len++] = b[i];
}

/* COMMAND on in, with fds 0-2 only, default dispositions, an empty mask. */
static pid_t start_cmd(int in, int *out)
{
	int o[2], e[2];
	pid_t pid;

	if (pipe2(o, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(e, O_CLOEXEC) < 0) {
		close(o[0]), close(o[1]);
		return -1;
	}
	pid = vfork();  /* the child only resets its own state, then execs */
	if (pid == 0) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		struct line l = { .len = 0 };
		extern char **environ;

		for (int s = 1; s < NSIG; s++)
			sigaction(s, &dfl, NULL);
		sigprocmask(SIG_SETMASK, &no_sigs, NULL);
		if (dup2(in, 0) == 0 && dup2(o[1], 1) == 1 && dup2(e[1], 2) == 2) {
#ifdef SYS_close_range
			if (syscall(SYS_close_range, 3, ~0U, 0) < 0)
#endif
				for (int fd = 3; fd < 1024; fd++)  /* before Linux 5.9 */
					close(fd);
			execve(opt.cmd[0], opt.cmd, environ);
		}
		fmt(&l, "cannot run %q%e\n", opt.cmd[0], errno);
		(void)write_all(2, l.buf, l.len);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	if (pid < 0) {
		close(o[0]), close(e[0]);
		return -1;
	}
	*out = o[0];
	child_err = e[0];
	return pid;
}

/* Reap COMMAND by the deadline (killed past it, or at once when kill_it):
 * its wait status, or -1 if we killed it. */
static int end_cmd(pid_t pid, int kill_it)
{
	int ws = -1;
	int64_t step = 1;

	for (;;) {
		struct pollfd p = { .fd = child_err, .events = POLLIN };
		pid_t r = kill_it ? 0 : waitpid(pid, &ws, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (kill_it || stopped() || left_ms() <= 0) {
			/* A child in uninterruptible sleep (a dead network file
			 * system) may not die at once: wait 1 s at most, never for
			 * ever; fwload's exit hands it to init. */
			kill(pid, SIGKILL);
			for (int i = 0; i < 100 && waitpid(pid, &ws, WNOHANG) == 0; i++)
				(void)poll(NULL, 0, 10);
			ws = -1;
			break;
		}
		if (wait_fds(&p, child_err >= 0, step) > 0)
			read_child_err();
		else if (step < 100)
			step *= 2;
	}
	if (child_err >= 0)
		close(child_err);
	child_err = -1;
	return ws;
}

/* --- The copy. --- */

enum fault { OK, F_READ, F_WRITE, F_SHRANK, F_BIG, F_SILENT, F_LATE, F_STOP };

/* Wait for the stream (draining COMMAND's stderr): OK, or why not. */
static enum fault wait_input(int in)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = in, .events = POLLIN }, { .fd = child_err, .events = POLLIN } };
		int64_t left = left_ms(), quiet = opt.quiet_s * 1000;
		int r;

		if (stopped())
			return F_STOP;
		if (left <= 0)
			return F_LATE;
		r = wait_fds(p, 2, left < quiet ? left : quiet);
		if (r == 0)
			return left < quiet ? F_LATE : F_SILENT;
		if (r > 0 && p[1].revents)
			read_child_err();
		if ((r > 0 && p[0].revents) || (r < 0 && errno != EINTR))
			return OK;  /* read() says what went wrong */
	}
}

static int unsupported(int err)
{
	return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP || err == EBADF || err == ESPIPE;
}

/*
 * Copy in to data: a regular file of size bytes (size >= 0) by sendfile(),
 * a stream (size < 0) by splice(), both falling back to read/write. A
 * stream gets at most opt.max_size bytes: one more is "too big". *n counts
 * what went to data; errno says why on F_READ and F_WRITE.
 */
static enum fault copy(int in, int data, int64_t size, int64_t *n)
{
	static char buf[64 * 1024];
	int fast = 1;
	enum fault f;

	for (*n = 0;;) {
		int64_t left = (size >= 0 ? size : opt.max_size) - *n;
		size_t want = left > (int64_t)sizeof(buf) ? sizeof(buf) : (size_t)left;
		ssize_t r;

		if (stopped())
			return F_STOP;
		if (left_ms() <= 0)
			return F_LATE;
		if (size >= 0 && left == 0)
			return OK;
		if (size < 0 && (f = wait_input(in)) != OK)
			return f;
		if (fast && left > 0) {
			off_t off = (off_t)*n;

			r = size >= 0 ? sendfile(data, in, &off, (size_t)left)  /* all at once */
				      : splice(in, NULL, data, NULL, want, SPLICE_F_MOVE);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && *n == 0 && unsupported(errno)) {
				fast = 0;
				continue;
			}
			if (r < 0 && size >= 0) {  /* which side failed? ask the image */
				int err = errno;
				char c;

				if (pread(in, &c, 1, off) < 0)
					return F_READ;
				errno = err;
			}
			if (r < 0)
				return F_WRITE;
		} else {
			/* at the limit, one byte more means too big */
			r = size >= 0 ? pread(in, buf, want, (off_t)*n) : read(in, buf, want ? want : 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return F_READ;
			if (r > 0 && left == 0)
				return F_BIG;
			if (r > 0 && write_all(data, buf, (size_t)r) < 0)
				return F_WRITE;
		}
		if (r == 0)
			return size >= 0 ? F_SHRANK : OK;
		*n += r;
	}
}

/* --- The image. --- */

/* -r: the opened file must lie inside one DIR: its resolved name inside a
 * resolved DIR, and that name must still be the file we hold. */
static int inside_roots(const struct stat *st)
{
	static char real[PATH_MAX], root[PATH_MAX];
	struct stat rst;

	if (!realpath(opt.image, real) || stat(real, &rst) < 0) {
		fail("cannot resolve %q%e", opt.image, errno);
		return 0;
	}
	if (rst.st_dev != st->st_dev || rst.st_ino != st->st_ino) {
		fail("%q resolves to %q, not the file opened", opt.image, real);
		return 0;
	}
	for (int i = 0; i < opt.nroots; i++) {
		size_t k;

		if (!realpath(opt.roots[i], root))
			continue;
		k = strlen(root);
		if (strcmp(root, "/") == 0 || (strncmp(real, root, k) == 0 && real[k] == '/'))
			return 1;
	}
	fail("%q resolves to %q, outside the firmware directories", opt.image, real);
	return 0;
}

/*
 * Open FILE without ever opening a FIFO or a device: an O_PATH handle,
 * fstat, then that inode reopened through /proc/self/fd. Without /proc: a
 * non-blocking open of the name, refused unless it is the same inode (a
 * device swapped in between the two opens is opened, O_NONBLOCK, and
 * closed at once: the one window left).
 */
static int open_image(struct stat *st)
{
	struct stat pre;
	struct line proc = { .len = 0 };
	int fd = -1, p = open(opt.image, O_PATH | O_CLOEXEC);

	if (p < 0 || fstat(p, &pre) < 0)
		fail("cannot open %q%e", opt.image, errno);
	else if (!S_ISREG(pre.st_mode))
		fail("not a regular file: %q", opt.image);
	else if (pre.st_size == 0)
		fail("empty file %q", opt.image);
	else if (pre.st_size > opt.max_size)
		fail("%q is %d bytes, over the limit of %d", opt.image, (long long)pre.st_size,
		     (long long)opt.max_size);
	else {
		fmt(&proc, "/proc/self/fd/%d", (long long)p);
		fd = open(proc.buf, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			fd = open(opt.image, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, st) < 0)
			fail("cannot open %q%e", opt.image, errno);
		else if (st->st_dev != pre.st_dev || st->st_ino != pre.st_ino)
			fail("file replaced while being opened: %q", opt.image);
		else if (opt.nroots == 0 || inside_roots(st))
			goto out;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
out:
	if (p >= 0)
		close(p);
	return fd;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size && a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* --- The request. --- */

/* Open SYSFS/DEVPATH and its loading, waiting up to -t for them. */
static int open_request(int *dir)
{
	for (int64_t waited = 0, step = 5;; waited += step, step = step < 100 ? step * 2 : 100) {
		int fd, err;

		if ((*dir = open(req, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
			if ((fd = openat(*dir, "loading", O_WRONLY | O_NOCTTY | O_CLOEXEC)) >= 0)
				return fd;
			err = errno;
			close(*dir);
			errno = err;
		}
		if (errno != ENOENT || waited >= opt.wait_s * 1000 || stopped())
			return -1;
		wait_fds(NULL, 0, step);
	}
}

static int answer(int loading, const char *value)
{
	return write_all(loading, value, strlen(value));
}

static int run(int cancel)
{
	int dir = -1, loading, data = -1, img = -1, in = -1, ws = 0, status = ABORTED, level = ERR;
	pid_t pid = 0;
	int64_t n = 0;
	struct stat st, after;
	enum fault f = OK;
	char c;

	loading = open_request(&dir);
	if (loading < 0) {
		fail("no request: cannot open %q/loading%e%s", req, errno,
		     stop_signal ? "; stopped by a signal" : "");
		say(ERR, msg.buf, 1);
		return stop_signal ? STOPPED : SYSTEM;
	}
	if (fstatat(dir, "remaining_size", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		fail("%q is a firmware-upload device, not a request; left alone", opt.devpath);
		status = NOT_REQUEST;
		goto quiet;
	}
	if (flock(loading, LOCK_EX | LOCK_NB) < 0) {
		status = errno == EWOULDBLOCK ? BUSY : SYSTEM;
		if (status == BUSY)
			fail("another answerer holds %q; left alone", opt.devpath);
		else
			fail("cannot lock %q/loading%e; left alone", req, errno);
		goto quiet;
	}
	if (cancel) {
		status = CANCELLED;
		level = WARN;
		msg.len = 0;
		fmt(&msg, "cancelled %q for %q", opt.name, opt.devpath);
		goto abort;
	}
	if (strcmp(opt.image, "-") == 0)
		in = 0;
	else if ((img = in = open_image(&st)) < 0)
		goto aborted;
	if (opt.cmd && (pid = start_cmd(img >= 0 ? img : 0, &in)) < 0) {
		fail("cannot start %q%e", opt.cmd[0], errno);
		pid = 0;
		goto aborted;
	}
	if ((data = openat(dir, "data", O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0) {
		fail("cannot open %q/data%e", req, errno);
		goto gone;
	}
	if (answer(loading, "1") < 0) {
		fail("cannot start: write 1 to %q/loading%e", req, errno);
		goto gone;
	}
	f = copy(in, data, img >= 0 && !pid ? st.st_size : -1, &n);
	if (pid && f == OK) {
		ws = end_cmd(pid, 0);
		pid = 0;
		if (ws == -1)
			f = F_LATE;  /* no exit by the deadline */
	} else if (pid) {
		kill(pid, SIGKILL);  /* reaped after the answer (out:) */
	}
	if (f == F_STOP || stopped()) {
		fail("stopped by signal %d", (long long)stop_signal);
		status = STOPPED;
	} else if (f == F_READ) {
		fail("cannot read %q%e", opt.source, errno);
	} else if (f == F_WRITE) {
		fail("cannot write %q/data%e", req, errno);
		goto gone;
	} else if (f == F_SHRANK) {
		fail("file shrank while being copied: %q", opt.image);
	} else if (f == F_BIG) {
		fail("more than %d bytes from %q", (long long)opt.max_size, opt.source);
	} else if (f == F_SILENT) {
		fail("nothing for %d s from %q", (long long)opt.quiet_s, opt.source);
	} else if (f == F_LATE) {
		fail("deadline of %d s passed reading %q", (long long)opt.deadline_s, opt.source);
	} else if (opt.cmd && ws != 0) {
		fail(WIFEXITED(ws) ? "%q failed (exit status %d) on %q" : "%q killed by signal %d on %q",
		     opt.cmd[0], (long long)(WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws)),
		     img >= 0 ? opt.image : "standard input");
		if (child_len)
			fmt(&msg, ": %q", child_line);
	} else if (n == 0) {
		fail("empty image from %q", opt.source);
	} else if (img >= 0 && (fstat(img, &after) < 0 || !same_file(&st, &after) ||
				(!opt.cmd && pread(img, &c, 1, (off_t)n) != 0))) {
		fail("file changed while being copied: %q", opt.image);
	} else if (answer(loading, "0") < 0) {
		fail("cannot commit: write 0 to %q/loading%e", req, errno);
		goto gone;
	} else {
		status = LOADED;
		level = INFO;
		msg.len = 0;
		fmt(&msg, "loaded %q (%d bytes, %d ms) from %q for %q", opt.name, (long long)n,
		    (long long)elapsed_ms(), opt.source, opt.devpath);
		goto answered;
	}
	goto aborted;

gone:	/* ENODEV, ENOENT: the request ended under us; the kernel said so */
	if (errno == ENODEV || errno == ENOENT) {
		status = SYSTEM;
		fmt(&msg, "; the request is gone");
		(void)answer(loading, "-1");
		goto quiet;
	}
aborted:
	fmt(&msg, "; request aborted");
abort:
	if (answer(loading, "-1") < 0 && errno != ENODEV && errno != ENOENT)
		fmt(&msg, "; cannot write -1%e", errno);
answered:
	close(loading);  /* the answer is in, the lock goes: now talk */
	if (opt.note)
		fmt(&msg, "; %q", opt.note);
	say(level, msg.buf, status != LOADED);
	goto out;
quiet:	/* nothing (more) to answer: one line on stderr only */
	close(loading);
	if (opt.note)
		fmt(&msg, "; %q", opt.note);
	to_stderr(msg.buf);
out:
	if (pid)
		end_cmd(pid, 1);
	if (in > 0 && in != img)
		close(in);
	if (img >= 0)
		close(img);
	if (data >= 0)
		close(data);
	close(dir);
	return status;
}

/* --- The configuration cache's stamp (-I, -K). --- */

/* One line of at most 4096 bytes (len counts on past that: too long). */
struct stamp { char buf[4097]; size_t len; };

static void st_put(struct stamp *s, char c)
{
	if (s->len < sizeof(s->buf) - 1)
		s->buf[s->len] = c;
	s->len++;
}

static void st_num(struct stamp *s, unsigned long long v, unsigned base, int width)
{
	char d[32], *p = d + sizeof(d);

	do
		*--p = (char)('0' + v % base);
	while ((v /= base) || d + sizeof(d) - p < width);
	while (p < d + sizeof(d))
		st_put(s, *p++);
}

/* s, with every byte outside [A-Za-z0-9._,+@=-] and keep as %XX. */
static void st_enc(struct stamp *s, const char *str, const char *keep)
{
	for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._,+@=-", *p) || strchr(keep, *p)) {
			st_put(s, (char)*p);
		} else {
			st_put(s, '%');
			st_put(s, "0123456789ABCDEF"[*p >> 4]);
			st_put(s, "0123456789ABCDEF"[*p & 15]);
		}
	}
}

/*
 * " ENC ID" for path: ID is stat(2)'s DEV:INO:SIZE:MTIME.NS:CTIME.NS:MODE
 * (decimal, nanoseconds in 9 digits, MODE in octal), "-" when the path
 * does not exist (ENOENT, ENOTDIR), "?" for any other error: then -1.
 */
static int st_path(struct stamp *s, const char *path)
{
	struct stat st;

	st_put(s, ' ');
	st_enc(s, path, "/");
	st_put(s, ' ');
	if (stat(path, &st) < 0) {
		st_put(s, errno == ENOENT || errno == ENOTDIR ? '-' : '?');
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	}
	st_num(s, (unsigned long long)st.st_dev, 10, 1);
	st_put(s, ':');
	st_num(s, (unsigned long long)st.st_ino, 10, 1);
	st_put(s, ':');
	st_num(s, (unsigned long long)st.st_size, 10, 1);
	for (int i = 0; i < 2; i++) {
		const struct timespec *t = i ? &st.st_ctim : &st.st_mtim;

		st_put(s, ':');
		if (t->tv_sec < 0)
			st_put(s, '-');
		st_num(s, t->tv_sec < 0 ? -(unsigned long long)t->tv_sec : (unsigned long long)t->tv_sec, 10, 1);
		st_put(s, '.');
		st_num(s, (unsigned long long)t->tv_nsec, 10, 9);
	}
	st_put(s, ':');
	st_num(s, st.st_mode, 8, 1);
	return 0;
}

/*
 * -K: CACHE is a regular file of our euid that nobody else may write, its
 * first line (at most 4096 bytes) the stamp of its inputs as -I prints it
 * now, its last line "fwload_cache_end=1". 0 if so; else -1, *why set.
 */
static int cache_fresh(const char *cache, const char **why)
{
	static const char end[] = "\nfwload_cache_end=1\n";
	static char head[4097], tail[sizeof(end) - 1], path[4097];
	static struct stamp now;
	struct stat st;
	ssize_t r;
	char *nl, *p, *q;
	int fd = open(cache, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), ok = -1;

	*why = "cannot open it";
	if (fd < 0)
		return -1;
	*why = "not a regular file of ours that only we can write";
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		goto close_cache;
	*why = "no end line: cut, or empty";
	if (st.st_size < (off_t)sizeof(tail) ||
	    pread(fd, tail, sizeof(tail), st.st_size - (off_t)sizeof(tail)) != (ssize_t)sizeof(tail) ||
	    memcmp(tail, end, sizeof(tail)) != 0)
		goto close_cache;
	*why = "no stamp line";
	if ((r = pread(fd, head, sizeof(head) - 1, 0)) <= 0 || !(nl = memchr(head, '\n', (size_t)r)))
		goto close_cache;
	*nl = '\0';
	now.len = 0;
	for (const char *s = "# fwload-cache 1"; *s; s++)
		st_put(&now, *s);
	if (strncmp(head, now.buf, now.len) != 0)
		goto close_cache;
	*why = "an input changed";
	/* " ENC ID" pairs: each ENC decoded, that path stamped again. */
	for (p = head + now.len; *p == ' ';) {
		for (q = path, p++; *p && *p != ' '; q++, p++) {
			unsigned hi, lo;

			if ((*q = *p) != '%')
				continue;
			hi = (unsigned)(p[1] - (p[1] <= '9' ? '0' : 'A' - 10));
			lo = (unsigned)(p[2] - (p[2] <= '9' ? '0' : 'A' - 10));
			if (hi > 15 || lo > 15 || !(hi | lo))
				goto close_cache;  /* not as -I writes it */
			*q = (char)(hi << 4 | lo);
			p += 2;
		}
		*q = '\0';
		if (*p != ' ' || st_path(&now, path) < 0)
			goto close_cache;
		for (p++; *p && *p != ' '; p++)
			;
	}
	ok = now.len == strlen(head) && memcmp(now.buf, head, now.len) == 0 ? 0 : -1;
close_cache:
	close(fd);
	return ok;
}

/* -I PATH...: the stamp line on stdout. */
static int print_stamp(char **paths, int n)
{
	static struct stamp s;

	for (const char *t = "# fwload-cache 1"; *t; t++)
		st_put(&s, *t);
	for (int i = 0; i < n; i++)
		(void)st_path(&s, paths[i]);
	st_put(&s, '\n');
	if (s.len > sizeof(s.buf) - 1)
		usage("-I: the stamp would be longer than 4096 bytes");
	return write_all(1, s.buf, s.len) < 0 ? SYSTEM : 0;
}

/* --- The command line. --- */

/* Whole number, 0 to max, with K/M/G (1024s) when k; or -1. */
static int64_t number(const char *s, int64_t max, int k)
{
	int64_t v = 0, m = 1;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (*s - '0')) > max)
			return -1;
	if (k && *s && !s[1] && strchr("KMG", *s))
		m = (int64_t)1 << (*s == 'K' ? 10 : *s == 'M' ? 20 : 30), s++;
	return *s || v * m > max ? -1 : v * m;
}

static int has_dotdot(const char *p)
{
	for (const char *s = p; *s; s++)
		if (s[0] == '.' && s[1] == '.' && (s == p || s[-1] == '/') && (!s[2] || s[2] == '/'))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const char *env, *lmsg = NULL, *cache = NULL, *why, *roots[argc];
	static struct line src;
	sigset_t stop_set;
	int i, cancel = 0, stamp = 0;

	/* The kernel starts helpers with fds 0-2 closed: fill them first. */
	while (syscall(SYS_fcntl, 0, F_GETFD) < 0 || syscall(SYS_fcntl, 1, F_GETFD) < 0 ||
	       syscall(SYS_fcntl, 2, F_GETFD) < 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd < 0)
			fd = open("/", O_RDONLY);  /* no /dev yet */
		if (fd < 0)
			return SYSTEM;
		if (fd > 2) {
			close(fd);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &opt.start);
	/* Stop signals: caught (no SA_RESTART), blocked but in waits; SIGPIPE
	 * ignored; SIGCHLD as it must be for waitpid(), whatever we inherited. */
	sigemptyset(&no_sigs);
	sigemptyset(&stop_set);
	for (size_t k = 0; k < sizeof(stop_sigs) / sizeof(stop_sigs[0]); k++) {
		sigaction(stop_sigs[k], &sa, NULL);
		sigaddset(&stop_set, stop_sigs[k]);
	}
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	sigprocmask(SIG_SETMASK, &stop_set, NULL);

	env = getenv("SYSFS");
	opt.sysfs = env && *env ? env : "/sys";
	opt.name = getenv("FIRMWARE");
	opt.log = "kmsg";
	opt.roots = roots;
	opt.deadline_s = 300;
	opt.max_size = 256 << 20;  /* linux-firmware's largest is far below */
	env = getenv("TIMEOUT");
	opt.wait_s = env && number(env, 86400, 0) > 0 ? number(env, 86400, 0) : 60;

	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return write_all(1, usage_text, sizeof(usage_text) - 1) ? SYSTEM : 0;
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return write_all(1, "fwload " FWLOAD_VERSION "\n", sizeof("fwload " FWLOAD_VERSION)) ? SYSTEM : 0;
	/* getopt style (-vc, -sDIR, -s DIR, --) without getopt(3) and its stdio */
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i] + 1, *val;

		if (strcmp(a, "-") == 0 && ++i)
			break;
		for (; *a; a++) {
			if (*a == 'c' || *a == 'v' || *a == 'I') {
				*(*a == 'c' ? &cancel : *a == 'v' ? &opt.verbose : &stamp) = 1;
				continue;
			}
			if (!strchr("stTSnlwrLK", *a))
				usage("unknown option");
			if (!(val = a[1] ? a + 1 : i + 1 < argc ? argv[++i] : NULL))
				usage("option wants a value");
			if (*a == 's')
				opt.sysfs = val;
			else if (*a == 'n')
				opt.name = val;
			else if (*a == 'w')
				opt.note = val;
			else if (*a == 'L')
				lmsg = val;
			else if (*a == 'K')
				cache = val;
			else if (*a == 'r')
				roots[opt.nroots++] = val;
			else if (*a == 't' && (opt.wait_s = number(val, 86400, 0)) < 0)
				usage("-t wants whole seconds, 0 to 86400");
			else if (*a == 'T' && (opt.deadline_s = number(val, 86400, 0)) <= 0)
				usage("-T wants whole seconds, 1 to 86400");
			else if (*a == 'S' && (opt.max_size = number(val, (int64_t)2047 << 20, 1)) <= 0)
				usage("-S wants a size in bytes (K, M, G suffixes), 1 to 2047M");
			else if (*a == 'l' && strcmp(val, "kmsg") && strcmp(val, "syslog") &&
				 strcmp(val, "none") && val[0] != '/')
				usage("-l wants kmsg, syslog, none or /FILE");
			else if (*a == 'l')
				opt.log = val;
			break;
		}
	}
	argc -= i;
	argv += i;
	if (stamp) {
		if (argc < 1 || cancel || lmsg || cache)
			usage("-I takes PATH... only");
		return print_stamp(argv, argc);
	}
	if (cache && !argc && !cancel && !lmsg) {
		if (cache_fresh(cache, &why) == 0)
			return LOADED;
		msg.len = 0;
		fmt(&msg, "configuration cache %q is stale: %s", cache, why);
		if (opt.verbose)
			to_stderr(msg.buf);
		return CHANGED;
	}
	if (lmsg) {
		if (argc || cancel)
			usage("-L takes no other operands");
		fmt(&src, "%q", lmsg);
		say(WARN, src.buf, 0);
		return 0;
	}
	if (cancel ? argc != 1 : argc < 2)
		usage(cancel ? "-c takes DEVPATH only" : "want DEVPATH and FILE (or -)");
	opt.devpath = argv[0];
	opt.image = cancel ? "" : argv[1];
	opt.cmd = argc > 2 ? argv + 2 : NULL;
	if (opt.cmd && opt.cmd[0][0] != '/')
		usage("COMMAND must be an absolute path");
	if (opt.devpath[0] != '/')
		usage("DEVPATH must start with /");
	if (has_dotdot(opt.devpath))
		usage("DEVPATH must not contain a .. component");
	if (strlen(opt.sysfs) + strlen(opt.devpath) >= sizeof(req))
		usage("SYSFS/DEVPATH too long");
	strcat(strcpy(req, opt.sysfs), opt.devpath);
	if (!opt.name || !*opt.name)
		opt.name = strrchr(opt.devpath, '/')[1] ? strrchr(opt.devpath, '/') + 1 : opt.devpath;
	opt.quiet_s = opt.wait_s ? opt.wait_s : 60;  /* a silent stream */
	fmt(&src, opt.cmd ? "%s via %s" : "%s", strcmp(opt.image, "-") ? opt.image : "standard input",
	    opt.cmd ? opt.cmd[0] : "");
	opt.source = src.buf;
	/* The configuration the caller decided from must still be what is on
	 * disk: else nothing is written, and the caller decides again. */
	if (cache && cache_fresh(cache, &why) < 0) {
		fmt(&msg, "configuration cache %q is stale: %s; nothing written", cache, why);
		if (opt.verbose)
			to_stderr(msg.buf);
		return CHANGED;
	}
	return run(cancel);
}
