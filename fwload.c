/*
 * fwload - answer one Linux firmware request through the sysfs fallback.
 *
 * The kernel's user-mode helper fallback creates SYSFS/DEVPATH/{loading,data}
 * and waits for user space to:
 *
 *   1. write "1" to loading       (start; discards anything written before)
 *   2. write the image to data    (at most one page per write(): loop)
 *   3. write "0" to loading       (commit: the driver gets the image)
 *      or "-1" to loading         (abort: the driver gets -ENOENT)
 *
 * fwload does exactly that, and every path after step 1 ends in exactly one
 * of "0" (complete, unchanged image) or "-1". It never holds the image in
 * memory: regular files go through sendfile(), streams through splice() or a
 * read/write loop.
 *
 * Exit status: 0 loaded, 1 cancelled as asked (-c), 2 image not delivered
 * (request aborted), 3 stopped by a signal (request aborted), 100 usage,
 * 111 system error (no request to answer).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

enum {
	EX_LOADED = 0,
	EX_CANCELLED = 1,
	EX_ABORTED = 2,
	EX_SIGNAL = 3,
	EX_USAGE = 100,
	EX_SYSTEM = 111,
};

enum log_target { TO_NONE, TO_KMSG, TO_SYSLOG, TO_FILE };

static const char usage_text[] =
	"usage: fwload [-v] [-s SYSFS] [-t SECONDS] [-n NAME] [-l kmsg|syslog|none|/FILE] [-r DIR]... DEVPATH FILE|-\n"
	"       fwload [-v] [-s SYSFS] [-t SECONDS] [-n NAME] [-l kmsg|syslog|none|/FILE] -c DEVPATH\n";

static volatile sig_atomic_t stop_signal;

static struct {
	const char *sysfs;
	const char *devpath;
	const char *name;
	const char *image;      /* path, or "-" for standard input */
	const char *roots[64];  /* -r: the image must really lie inside one */
	int nroots;
	enum log_target log;
	const char *log_file;
	int verbose;
	long wait_s;
	struct timespec start;
} opt;

/* A message line, built without stdio. */
struct line {
	char buf[1024];
	size_t len;
};

static void add(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(l->buf) - 1 - l->len)
		n = sizeof(l->buf) - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static void add_num(struct line *l, uint64_t v)
{
	char d[24];
	size_t i = sizeof(d) - 1;

	d[i] = '\0';
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	add(l, d + i);
}

static int write_all(int fd, const char *p, size_t n);
static void send_syslog(const struct line *l, int failure);

/* One outcome line: to stderr (failures, or with -v), and to the log. */
static void say(struct line *l, int failure)
{
	if (failure || opt.verbose) {
		struct iovec v[3] = {
			{ .iov_base = (void *)"fwload: ", .iov_len = 8 },
			{ .iov_base = l->buf, .iov_len = l->len },
			{ .iov_base = (void *)"\n", .iov_len = 1 },
		};
		(void)!writev(2, v, 3);
	}
	if (opt.log == TO_KMSG || opt.log == TO_FILE) {
		/* One write() per line: /dev/kmsg takes each as one record. */
		struct line k = { .len = 0 };
		int fd = opt.log == TO_KMSG
			? open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY)
			: open(opt.log_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);

		if (fd >= 0) {
			if (opt.log == TO_KMSG)
				add(&k, failure ? "<3>" : "<6>");
			add(&k, "fwload: ");
			add(&k, l->buf);
			add(&k, "\n");
			(void)write_all(fd, k.buf, k.len);
			close(fd);
		}
	} else if (opt.log == TO_SYSLOG) {
		send_syslog(l, failure);
	}
}

/* One datagram to /dev/log, daemon facility, without syslog(3): the
 * daemon stamps the time, and libc's syslog would pull in stdio. */
static void send_syslog(const struct line *l, int failure)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
	struct line m = { .len = 0 };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	add(&m, failure ? "<27>fwload[" : "<30>fwload[");  /* daemon.err, daemon.info */
	add_num(&m, (uint64_t)getpid());
	add(&m, "]: ");
	add(&m, l->buf);
	(void)!sendto(fd, m.buf, m.len, MSG_NOSIGNAL, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
}

/* "NAME: what PATH: strerror" */
static void fail(const char *what, const char *path, int err, const char *outcome)
{
	struct line l = { .len = 0 };

	add(&l, opt.name);
	add(&l, ": ");
	add(&l, what);
	if (path) {
		add(&l, " ");
		add(&l, path);
	}
	if (err) {
		add(&l, ": ");
		add(&l, strerror(err));
		add(&l, " (errno ");
		add_num(&l, (uint64_t)err);
		add(&l, ")");
	}
	if (outcome) {
		add(&l, "; ");
		add(&l, outcome);
	}
	say(&l, 1);
}

static void usage(const char *why)
{
	struct line l = { .len = 0 };

	if (why) {
		add(&l, "fwload: ");
		add(&l, why);
		add(&l, "\n");
		(void)write_all(2, l.buf, l.len);
	}
	(void)write_all(2, usage_text, sizeof(usage_text) - 1);
	exit(EX_USAGE);
}

/*
 * The one write loop: retry EINTR unless we are being stopped, carry on after
 * short writes (sysfs "data" takes one page per call), stop on error.
 */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR && !stop_signal)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* The kernel starts helpers with fds 0-2 closed: fill the holes first, so no
 * file we open later becomes stdout or stderr and takes a stray message. */
static void sanitize_fds(void)
{
	int fd;

	while (fcntl(2, F_GETFD) < 0 || fcntl(1, F_GETFD) < 0 || fcntl(0, F_GETFD) < 0) {
		fd = open("/dev/null", O_RDWR);
		if (fd < 0)
			fd = open("/", O_RDONLY);  /* no /dev yet: writes to it fail */
		if (fd < 0)
			_exit(EX_SYSTEM);
		if (fd > 2) {
			close(fd);
			break;
		}
	}
}

static long elapsed_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - opt.start.tv_sec) * 1000 +
	       (now.tv_nsec - opt.start.tv_nsec) / 1000000;
}

/* SYSFS/DEVPATH/FILE into buf; 0, or -1 if it does not fit. */
static int req_path(char *buf, size_t size, const char *file)
{
	size_t a = strlen(opt.sysfs), b = strlen(opt.devpath), c = strlen(file);

	if (a + b + 1 + c + 1 > size)
		return -1;
	memcpy(buf, opt.sysfs, a);
	memcpy(buf + a, opt.devpath, b);
	buf[a + b] = '/';
	memcpy(buf + a + b + 1, file, c + 1);
	return 0;
}

/* Open SYSFS/DEVPATH/loading, waiting up to opt.wait_s for it to appear. */
static int open_loading(const char *path)
{
	long waited_ms = 0, step_ms = 5;

	for (;;) {
		int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

		if (fd >= 0 || errno != ENOENT || waited_ms >= opt.wait_s * 1000 || stop_signal)
			return fd;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = step_ms * 1000000 };
		nanosleep(&ts, NULL);
		waited_ms += step_ms;
		if (step_ms < 100)
			step_ms *= 2;
	}
}

static int answer(int fd, const char *value)
{
	return write_all(fd, value, strlen(value));
}

/* Is this an error that says "this copy primitive does not apply here"? */
static int unsupported(int err)
{
	return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP || err == EBADF || err == ESPIPE;
}

/*
 * Copy from img to data. For a regular file copy exactly size bytes (size
 * > 0) from offset 0; for a stream (size < 0) copy until end of file.
 * Returns bytes copied, or -1 with errno set; *src_err tells whether the
 * failing side was the image (1) or data (0).
 */
static int64_t copy(int img, int data, int64_t size, int *src_err)
{
	int64_t done = 0;
	static char buf[256 * 1024];
	long page = sysconf(_SC_PAGESIZE);
	size_t bufsize = page > 0 && (size_t)page * 16 <= sizeof(buf) ? (size_t)page * 16 : sizeof(buf);
	int use_sendfile = size > 0, use_splice = size < 0;

	*src_err = 0;
	/* sendfile() from a regular file: the fastest path (on 6.12 one call
	 * moves the whole image; elsewhere it may come back short: loop). */
	while (use_sendfile) {
		off_t off = (off_t)done;
		size_t want = (size_t)(size - done) > 0x7ffff000 ? 0x7ffff000 : (size_t)(size - done);
		ssize_t r;

		if (stop_signal)
			goto interrupted;
		if (want == 0)
			return done;
		r = sendfile(data, img, &off, want);
		if (r > 0) {
			done += r;
			continue;
		}
		if (r == 0) {
			*src_err = 1;
			errno = ENODATA;  /* the file ended early: it shrank */
			return -1;
		}
		if (errno == EINTR)
			continue;
		if (done == 0 && unsupported(errno))
			break;  /* fall back to read/write */
		/* sendfile does not say which side failed: ask the image. */
		{
			int err = errno;
			char c;

			if (pread(img, &c, 1, (off_t)done) < 0) {
				*src_err = 1;
				return -1;
			}
			errno = err;
		}
		return -1;
	}
	/* splice() from a pipe (a decompressor, say): no copy through user space. */
	while (use_splice) {
		ssize_t r;

		if (stop_signal)
			goto interrupted;
		r = splice(img, NULL, data, NULL, bufsize, SPLICE_F_MOVE);
		if (r > 0) {
			done += r;
			continue;
		}
		if (r == 0)
			return done;
		if (errno == EINTR)
			continue;
		if (done == 0 && unsupported(errno))
			break;
		return -1;  /* ambiguous side; the caller reports data */
	}

	for (;;) {
		ssize_t r;

		if (stop_signal)
			goto interrupted;
		r = size > 0 ? pread(img, buf, bufsize, (off_t)done) : read(img, buf, bufsize);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*src_err = 1;
			return -1;
		}
		if (r == 0)
			break;
		if (size > 0 && done + r > size)
			r = (ssize_t)(size - done);  /* grew: stop at size, caught below */
		if (write_all(data, buf, (size_t)r) < 0) {
			if (stop_signal)
				goto interrupted;
			return -1;
		}
		done += r;
		if (size > 0 && done == size)
			break;
	}
	if (size > 0 && done < size) {
		*src_err = 1;
		errno = ENODATA;
		return -1;
	}
	return done;

interrupted:
	errno = EINTR;
	return -1;
}

/*
 * -r policy: symbolic links are followed (linux-firmware and update-
 * alternatives rely on them), but the file they end at must lie inside one
 * of the roots, so a link cannot hand a driver /etc/shadow. The resolved
 * path must still name the file that was opened.
 */
static int inside_roots(const struct stat *st)
{
	static char real[PATH_MAX], root[PATH_MAX];
	struct stat rst;

	if (!realpath(opt.image, real) || stat(real, &rst) < 0 ||
	    rst.st_dev != st->st_dev || rst.st_ino != st->st_ino) {
		fail("cannot resolve", opt.image, errno, NULL);
		return 0;
	}
	for (int i = 0; i < opt.nroots; i++) {
		size_t n;

		if (!realpath(opt.roots[i], root))
			continue;
		n = strlen(root);
		if (strcmp(root, "/") == 0 || (strncmp(real, root, n) == 0 && real[n] == '/'))
			return 1;
	}
	{
		struct line l = { .len = 0 };

		add(&l, opt.name);
		add(&l, ": ");
		add(&l, opt.image);
		add(&l, " resolves to ");
		add(&l, real);
		add(&l, ", outside the firmware directories; request aborted");
		say(&l, 1);
	}
	return 0;
}

/* Open the image: a regular, non-empty file (opening a FIFO or a device
 * must not block or have side effects), or standard input. */
static int open_image(struct stat *st)
{
	struct stat pre;
	int fd;

	if (strcmp(opt.image, "-") == 0) {
		if (fstat(0, st) < 0) {
			fail("cannot use standard input", NULL, errno, NULL);
			return -1;
		}
		st->st_size = -1;  /* a stream: copy to end of file */
		return 0;
	}
	if (stat(opt.image, &pre) < 0) {
		fail("cannot find", opt.image, errno, NULL);
		return -1;
	}
	if (!S_ISREG(pre.st_mode)) {
		fail("not a regular file:", opt.image, 0, NULL);
		return -1;
	}
	fd = open(opt.image, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fail("cannot open", opt.image, errno, NULL);
		return -1;
	}
	if (fstat(fd, st) < 0 || st->st_dev != pre.st_dev || st->st_ino != pre.st_ino ||
	    !S_ISREG(st->st_mode)) {
		fail("file replaced while being opened:", opt.image, 0, NULL);
		close(fd);
		return -1;
	}
	if (st->st_size == 0) {
		fail("empty file", opt.image, 0, NULL);
		close(fd);
		return -1;
	}
	if (opt.nroots && !inside_roots(st)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int same_file_state(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size && a->st_ino == b->st_ino &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static int run(int cancel)
{
	char loading_path[4096], data_path[4096];
	struct stat st, after;
	int loading = -1, data = -1, img = -1, src_err = 0;
	int status = EX_SYSTEM;
	int64_t n;

	if (req_path(loading_path, sizeof(loading_path), "loading") < 0 ||
	    req_path(data_path, sizeof(data_path), "data") < 0) {
		fail("request path too long:", opt.devpath, 0, NULL);
		return EX_USAGE;
	}

	loading = open_loading(loading_path);
	if (loading < 0) {
		fail("no request: cannot open", loading_path, errno, NULL);
		return stop_signal ? EX_SIGNAL : EX_SYSTEM;
	}
	if (cancel) {
		if (answer(loading, "-1") < 0) {
			fail("cannot cancel: write -1 to", loading_path, errno, NULL);
			goto out;
		}
		status = EX_CANCELLED;
		goto out;
	}

	status = EX_ABORTED;
	img = open_image(&st);
	if (img < 0)
		goto abort;
	data = open(data_path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (data < 0) {
		fail("cannot open", data_path, errno, "request aborted");
		goto abort_quiet;
	}
	if (answer(loading, "1") < 0) {
		fail("cannot start: write 1 to", loading_path, errno, "request aborted");
		goto abort_quiet;
	}

	n = copy(img, data, st.st_size, &src_err);
	if (n < 0) {
		if (stop_signal)
			goto abort;
		if (errno == ENODATA)
			fail("file shrank while being copied:", opt.image, 0, "request aborted");
		else if (src_err)
			fail("cannot read", strcmp(opt.image, "-") ? opt.image : "standard input", errno,
			     "request aborted");
		else if (errno == ENODEV || errno == ENOENT)
			fail("request gone (timed out?) while writing", data_path, errno, NULL);
		else
			fail("cannot write", data_path, errno, "request aborted");
		goto abort_quiet;
	}
	if (st.st_size < 0) {
		if (n == 0) {
			fail("empty image on standard input", NULL, 0, "request aborted");
			goto abort_quiet;
		}
	} else {
		char c;
		ssize_t r = pread(img, &c, 1, (off_t)n);

		if (r != 0 || fstat(img, &after) < 0 || !same_file_state(&st, &after)) {
			fail("file changed while being copied:", opt.image, 0, "request aborted");
			goto abort_quiet;
		}
	}
	if (stop_signal)
		goto abort;
	if (answer(loading, "0") < 0) {
		fail("cannot commit: write 0 to", loading_path, errno, "the driver did not get the image");
		goto out;
	}
	{
		struct line l = { .len = 0 };

		add(&l, "loaded ");
		add(&l, opt.name);
		add(&l, " (");
		add_num(&l, (uint64_t)n);
		add(&l, " bytes, ");
		add_num(&l, (uint64_t)elapsed_ms());
		add(&l, " ms) from ");
		add(&l, strcmp(opt.image, "-") ? opt.image : "standard input");
		add(&l, " for ");
		add(&l, opt.devpath);
		say(&l, 0);
	}
	status = EX_LOADED;
	goto out;

abort:
	if (stop_signal) {
		fail("stopped by signal", NULL, 0, "request aborted");
		status = EX_SIGNAL;
	}
abort_quiet:
	if (answer(loading, "-1") < 0 && errno != ENODEV && errno != ENOENT)
		fail("cannot abort: write -1 to", loading_path, errno, NULL);
out:
	if (img > 2)  /* not standard input */
		close(img);
	if (data >= 0)
		close(data);
	close(loading);
	return status;
}

static int has_dotdot(const char *p)
{
	for (const char *s = p; *s; s++)
		if (s[0] == '.' && s[1] == '.' && (s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			return 1;
	return 0;
}

/* Whole seconds, 0 to 86400, or -1. */
static long parse_seconds(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 86400)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v <= 86400 ? v : -1;
}

static void set_option(char o, const char *val)
{
	switch (o) {
	case 's':
		opt.sysfs = val;
		break;
	case 't':
		opt.wait_s = parse_seconds(val);
		if (opt.wait_s < 0)
			usage("-t wants whole seconds, 0 to 86400");
		break;
	case 'n':
		opt.name = val;
		break;
	case 'r':
		if (opt.nroots == (int)(sizeof(opt.roots) / sizeof(opt.roots[0])))
			usage("too many -r");
		opt.roots[opt.nroots++] = val;
		break;
	case 'l':
		if (strcmp(val, "kmsg") == 0)
			opt.log = TO_KMSG;
		else if (strcmp(val, "syslog") == 0)
			opt.log = TO_SYSLOG;
		else if (strcmp(val, "none") == 0)
			opt.log = TO_NONE;
		else if (val[0] == '/') {
			opt.log = TO_FILE;
			opt.log_file = val;
		} else
			usage("-l wants kmsg, syslog, none or /FILE");
		break;
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	const char *env;
	int i, cancel = 0;

	sanitize_fds();
	clock_gettime(CLOCK_MONOTONIC, &opt.start);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;  /* no SA_RESTART: interrupt the copy */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	env = getenv("SYSFS");
	opt.sysfs = env && *env ? env : "/sys";
	opt.name = getenv("FIRMWARE");
	opt.wait_s = 60;
	env = getenv("TIMEOUT");
	if (env) {
		long t = parse_seconds(env);

		if (t > 0)
			opt.wait_s = t;  /* TIMEOUT=0 (wait for ever) or garbage: 60 */
	}

	/* Options first, getopt style (-v -c, -sDIR or -s DIR, --), without
	 * getopt(3), whose messages would pull stdio into a static binary. */
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i] + 1, *val;

		if (strcmp(a, "-") == 0) {
			i++;
			break;
		}
		for (; *a; a++) {
			if (*a == 'c' || *a == 'v') {
				*(*a == 'c' ? &cancel : &opt.verbose) = 1;
				continue;
			}
			if (!strchr("stnlr", *a))
				usage("unknown option");
			val = a[1] ? a + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val)
				usage("option wants a value");
			set_option(*a, val);
			break;
		}
	}
	argc -= i;
	argv += i;
	if (argc != (cancel ? 1 : 2))
		usage(cancel ? "-c takes DEVPATH only" : "want DEVPATH and FILE (or -)");
	opt.devpath = argv[0];
	opt.image = cancel ? NULL : argv[1];
	if (opt.devpath[0] != '/')
		usage("DEVPATH must start with /");
	if (has_dotdot(opt.devpath))
		usage("DEVPATH must not contain a .. component");
	if (!opt.name || !*opt.name) {
		const char *slash = strrchr(opt.devpath, '/');

		opt.name = slash[1] ? slash + 1 : opt.devpath;
	}
	return run(cancel);
}
