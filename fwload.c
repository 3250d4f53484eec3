/* SPDX-License-Identifier: MIT */
/*
 * fwload - answer one Linux firmware request through the sysfs fallback.
 *
 * The kernel makes SYSFS/DEVPATH/{loading,data} and waits for user space:
 *
 *   0. -K CACHE: the configuration the caller decided from is still on
 *      disk, or nothing is touched                               -> exit 7
 *      (CACHE's directory not ours alone                         -> exit 4)
 *   1. open the request's directory once; loading and data relative to it
 *      (a request replaced at the same DEVPATH is never written to); -e
 *      (the caller saw it, as an event's files come before its uevent):
 *      not there means answered meanwhile                        -> exit 5
 *   2. leave firmware-upload devices alone (writing starts a flash) -> 6
 *      (-U, fwloadctl upload: the other way round, an idle firmware-upload
 *      device only, and the bytes written so far on stdout)
 *   3. lock LOCKDIR/DEV-INO, a file only root can open: one answerer per
 *      request; held elsewhere                                   -> exit 5
 *   4. open the image (never a FIFO or a device: O_PATH, fstat, reopen),
 *      inside the -r directories; start COMMAND if any, in a session of
 *      its own led by its keeper: it and all it starts end with the load,
 *      and with us if we die
 *   5. write "1" to loading, read it back (0: another answered it before
 *      us, its "1" ignored -> exit 5), the image to data (one page per
 *      write: loop)
 *   6. write "0" (whole image, COMMAND exited 0, file unchanged) or "-1"
 *   7. only then unlock and log the outcome: one line, to a sink that
 *      cannot keep us past a second
 *
 * Every path after the lock ends in exactly one "0" or "-1"; every signal
 * that could end us stays blocked, so it ends the load in "-1" too. Exit
 * status: 0 loaded (-U: handed over), 1 cancelled (-c), 2 aborted, 3
 * stopped by a signal, 4 (-K CACHE) CACHE's directory not ours alone, 5
 * busy or answered by another (-U: or the device not idle), 6 not a
 * request (-U: not a firmware-upload device), 7 configuration changed
 * (-K: nothing written), 100 usage, 111 system error or no request to
 * answer.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include "log.h"
#include "request.h"

#ifndef SYS_openat2
#define SYS_openat2 437  /* Linux 5.6; the generic number */
#endif

enum { LOADED = 0, CANCELLED = 1, ABORTED = 2, STOPPED = 3, UNSAFE = 4, BUSY = 5, NOT_REQUEST = 6,
       CHANGED = 7, GONE = EX_SYSTEM };

static const char usage_text[] =
	"usage: fwload [-ev] [-s SYSFS] [-t WAIT] [-T DEADLINE] [-S MAXSIZE] [-n NAME] [-l LOG] [-w NOTE]\n"
	"              [-k LOCKDIR] [-K CACHE] [-U] [-r DIR]... DEVPATH FILE|- [COMMAND [ARG]...]\n"
	"       fwload [-ev] [-s SYSFS] [-t WAIT] [-n NAME] [-l LOG] [-w NOTE] [-k LOCKDIR] [-K CACHE]\n"
	"              -c DEVPATH\n"
	"       fwload [-l LOG] -L MESSAGE\n"
	"       fwload -I [-R REF] [-W] PATH...  (a configuration cache's stamp; 7: changed after REF;\n"
	"                                   4: a file or directory not root's alone; -W 5: a file open for writing)\n"
	"       fwload [-v] -K CACHE|STAMP (exit 0 fresh, 7 stale; 4 CACHE's directory not ours alone)\n"
	"       fwload [-s SYSFS] [-U] -i DEVPATH (the request's key)\n"
	"       fwload [-s SYSFS] -P [COMMAND [ARG]...] (the pending requests)\n"
	"       fwload --help | --version\n"
	"-e: the request was there (an event's): gone is answered by another (5).\n"
	"WAIT: seconds for the request to appear (TIMEOUT, a day at most, else 60; none\n"
	"with -e), and the most a stream may stay silent. DEADLINE: seconds for the\n"
	"whole load (300).\n"
	"MAXSIZE: bytes, K/M/G (256M). LOG: kmsg (default), syslog, none, /FILE.\n"
	"LOCKDIR: " FWLOAD_RUNDIR "/lock. COMMAND: an absolute path; its output is the image.\n"
	"-U: DEVPATH is an idle firmware-upload device (fwloadctl upload), the bytes\n"
	"written so far on stdout.\n";

static struct {
	const char *sysfs, *devpath, *name, *image, *source, *log, *note, *lockdir, **roots;
	char *const *cmd;  /* COMMAND [ARG]...: its output is the image */
	int nroots, verbose, upload, seen;  /* upload: -U; seen: -e */
	int64_t wait_s, quiet_s, deadline_s, max_size, start;
} opt;

static char req[PATH_MAX];    /* SYSFS/DEVPATH */
static struct line msg;  /* the outcome, said after the answer */
static char child_line[201];  /* COMMAND's first line on stderr */
static size_t child_len;
static int child_err = -1, child_nl, sigfd = -1, chldfd = -1, stop_signal;
static int word = -1;      /* COMMAND's wait status, from its keeper */
static int keeper_ws;      /* the keeper's own, when it ended first */

/* --- Messages: one line each, said after the answer. --- */

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

/* stderr, unless it stays full for a second (a stuck pipe must not hang us). */
static void to_stderr(const char *text)
{
	struct line l = { .len = 0 };

	line_fmt(&l, "fwload: %s\n", text);
	(void)stderr_put(l.buf, l.len, 1000);
}

/* One line: on stderr for -v and every failure, then to the -l sink. */
static void say(int level, const char *text, int to_err)
{
	if (to_err || opt.verbose)
		to_stderr(text);
	log_line(opt.log, "fwload", level, text);
}

static void usage(const char *why)
{
	to_stderr(why);
	(void)write_all(2, usage_text, sizeof(usage_text) - 1);
	exit(EX_USAGE);
}

/* --- Time and signals. --- */

#define LBITS (8 * sizeof(long))  /* the bits of a ksigset's word (util.h) */
static ksigset stop_set;

static int64_t left_ms(void)
{
	return opt.deadline_s * 1000 - (now_ms() - opt.start);
}

/*
 * Every signal that would end us (all but KILL, STOP, CHLD, CONT, PIPE,
 * URG, WINCH and the stop signals) is blocked from the start, 32 and 33,
 * which the C library keeps for itself, included (raw system calls): it
 * stays pending, is seen here, and wakes every wait through a signalfd
 * (without one, ENOMEM or EMFILE: each wait lasts 100 ms at most, and the
 * signal is seen at its end). So no signal ends us between "1" and the
 * answer.
 */
static void block_signals(void)
{
	static const unsigned char go_on[] = { SIGKILL, SIGSTOP, SIGCHLD, SIGCONT, SIGPIPE, SIGURG,
					       SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU };
	ksigset all;

	memset(all, 0xff, sizeof(all));
	memset(stop_set, 0xff, sizeof(stop_set));
	for (size_t i = 0; i < sizeof(go_on); i++)
		stop_set[(go_on[i] - 1) / LBITS] &= ~(1UL << (go_on[i] - 1) % LBITS);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, all, NULL, KSIG_BYTES);
	sigfd = (int)syscall(SYS_signalfd4, -1, stop_set, KSIG_BYTES, SFD_NONBLOCK | SFD_CLOEXEC);
}

/* SIGCHLD on a signalfd of its own, for the waits once COMMAND runs (read
 * as it comes: it would otherwise stay readable). */
static void watch_children(void)
{
	static const ksigset chld = { 1UL << (SIGCHLD - 1) };

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

/* Wait up to ms for one of n fds (p has room for two more: the signals,
 * and a child's end; without a signalfd, 100 ms at most: every caller
 * looks at stopped() and, with COMMAND, at its keeper). */
static int wait_fds(struct pollfd *p, int n, int64_t ms)
{
	struct signalfd_siginfo drain[4];
	int r;

	p[n] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
	p[n + 1] = (struct pollfd){ .fd = chldfd, .events = POLLIN };
	if ((sigfd < 0 || (opt.cmd && chldfd < 0)) && ms > 100)
		ms = 100;
	r = poll(p, (nfds_t)n + 2, ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms);
	if (r > 0 && p[n + 1].revents)
		while (read(chldfd, drain, sizeof(drain)) > 0)
			;
	return r;
}

/* --- COMMAND: its stdout is the image; the first line of its stderr is kept. --- */

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

/* Our children, each SIGKILLed: the processes /proc says we are the
 * parent of (the keeper is a subreaper: what COMMAND started comes to it as
 * its parents die). A child's pid stays ours until we reap it: never
 * another's. */
static void kill_children(void)
{
	struct dirbuf d = { .fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC) };
	int64_t me = getpid(), pid;
	const char *name;

	while ((name = dir_next(&d)))
		if ((pid = parse_num(name, INT32_MAX, NULL)) > 0 && proc_stat(pid, 4) == me)
			kill((pid_t)pid, SIGKILL);
}

/*
 * Everything COMMAND started ended, for 1 s at most (a process in
 * uninterruptible sleep, on a dead network file system, may not die at
 * once: our exit hands it to init): our children SIGKILLed (COMMAND, and
 * what it left, which comes to us as its parents die, in whatever session)
 * until none is left. COMMAND's wait status in *ws when it is reaped.
 */
static void sweep(pid_t cmd, int *ws)
{
	static const ksigset chld = { 1UL << (SIGCHLD - 1) };
	static const struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t p;
	int w;

	for (int i = 0; i < 100; i++) {
		while ((p = waitpid(-1, &w, WNOHANG)) > 0)
			if (p == cmd)
				*ws = w;
		if (p < 0)
			return;  /* no child left: nothing of COMMAND */
		kill_children();
		syscall(SYS_rt_sigtimedwait, chld, NULL, &tick, KSIG_BYTES);
	}
}

/*
 * COMMAND's keeper: a copy of us (clone: fork's semantics without fork's
 * locks) that leads COMMAND's session and process group (COMMAND is in
 * it), runs no program and is the subreaper of all COMMAND starts. Our
 * death, however it comes (SIGKILL to us or to our job's group, an OOM
 * kill), reaches the keeper as SIGTERM (PR_SET_PDEATHSIG: nothing else
 * would tell it, which no signal to us reaches), and so does our end_cmd's
 * word: it then ends all of COMMAND (sweep, then its own group, itself
 * included). Otherwise it waits for COMMAND, ends what COMMAND left behind,
 * writes COMMAND's wait status to fd 3 (our word pipe: a keeper that ends
 * without it ended first, and we end its group) and exits 0. Its fds: 0-2
 * for COMMAND until it has started, then only fd 3 (the request's lock
 * above all: never held past our death).
 */
static int keeper(void *arg)
{
	static const ksigset wake = { 1UL << (SIGTERM - 1) | 1UL << (SIGCHLD - 1) };
	const int *fd = arg;  /* in, out, err, word, our parent's pid */
	extern char **environ;
	int ws = 0, s;
	siginfo_t si;
	pid_t pid;

	/* PR_SET_CHILD_SUBREAPER refused (EINVAL: a kernel before 3.4, or
	 * qemu-user, which passes few prctl options on): COMMAND's group is
	 * ended all the same, what left it is not. */
	if (setsid() < 0 || prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 ||
	    (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 && errno != EINVAL) || dup2(fd[0], 0) != 0 || dup2(fd[1], 1) != 1 ||
	    dup2(fd[2], 2) != 2 || dup2(fd[3], 3) != 3) {
		say_as("", "cannot run %q: its session%e", opt.cmd[0], errno);
		_exit(127);
	}
	if (getppid() != fd[4])
		_exit(127);  /* we died already */
	close_from(4);
	/* COMMAND, in our process group */
	if ((pid = child_start(opt.cmd[0], opt.cmd, environ, NULL, 0, "")) < 0) {
		say_as("", "cannot start %q%e", opt.cmd[0], errno);
		ws = 127 << 8;
		(void)!write(3, &ws, sizeof(ws));
		_exit(0);
	}
	close(0), close(1), close(2);
	/* SIGTERM and SIGCHLD stay blocked (all do, since block_signals()):
	 * taken here one at a time. Until COMMAND exits, what else of it ends
	 * is reaped as it comes (COMMAND itself only looked at). */
	for (s = 0; s != SIGTERM;) {
		s = (int)syscall(SYS_rt_sigtimedwait, wake, NULL, NULL, KSIG_BYTES);
		while (s == SIGCHLD && (si.si_pid = 0, waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == 0) &&
		       si.si_pid > 0 && si.si_pid != pid)
			waitpid(si.si_pid, NULL, 0);
		if (s == SIGCHLD && si.si_pid == pid)
			break;
	}
	sweep(pid, &ws);
	if (s == SIGTERM)
		kill(0, SIGKILL);  /* what is left of our group (no /proc to find it), and us */
	(void)!write(3, &ws, sizeof(ws));
	_exit(0);
}

/* COMMAND on in, with fds 0-2 only, default dispositions, an empty mask,
 * in a session and process group of its own that its keeper leads (no
 * controlling terminal, nor a way to get one; all it starts, in whatever
 * session, ended with the load, and when we die): the keeper's pid, or 0
 * with msg set. */
static pid_t start_cmd(int in, int *out)
{
	static long long stack[4096];  /* the keeper's */
	int o[2] = { -1, -1 }, e[2] = { -1, -1 }, w[2] = { -1, -1 }, fd[5];
	pid_t pid = -1;

	if (syscall(SYS_pipe2, o, O_CLOEXEC) == 0 && syscall(SYS_pipe2, e, O_CLOEXEC) == 0 &&
	    syscall(SYS_pipe2, w, O_CLOEXEC | O_NONBLOCK) == 0) {
		fd[0] = in, fd[1] = o[1], fd[2] = e[1], fd[3] = w[1], fd[4] = getpid();
		watch_children();
		pid = clone(keeper, stack + sizeof(stack) / sizeof(stack[0]), SIGCHLD, fd);
	}
	if (pid < 0)
		fail("cannot start %q%e", opt.cmd[0], errno);
	close(o[1]), close(e[1]), close(w[1]);
	if (pid < 0)
		return close(o[0]), close(e[0]), close(w[0]), 0;
	*out = o[0];
	child_err = e[0];
	word = w[0];
	return pid;
}

/*
 * Has the keeper (pid) ended? 0 if not; once it has (not reaped yet), its
 * group (COMMAND's, what is left of it) is SIGKILLed and, from then on, 1
 * with COMMAND's wait status from its word in *ws, or -2 when there is
 * none (the keeper ended before COMMAND: keeper_ws is its own status).
 */
static int keeper_end(pid_t pid, int *ws)
{
	static int ended, cmd_ws;
	siginfo_t si = { .si_pid = 0 };

	if (!ended) {
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid != pid)
			return 0;
		kill(-pid, SIGKILL);  /* its pid is not free yet: never another's group */
		ended = read(word, &cmd_ws, sizeof(cmd_ws)) == (ssize_t)sizeof(cmd_ws) ? 1 : -2;
		keeper_ws = si.si_code == CLD_EXITED ? si.si_status << 8 : si.si_status;
	}
	*ws = cmd_ws;
	return ended;
}

/*
 * Wait up to ms for COMMAND to exit (killed past it, or when a signal
 * stops us); its keeper then ends all it started, and is reaped: COMMAND's
 * wait status, -1 if we ended it, -2 if its keeper ended first (we ended
 * COMMAND's group then).
 */
static int end_cmd(pid_t pid, int64_t ms)
{
	int64_t until = now_ms() + ms;
	int ws = -1, killed = 0, e;

	for (;;) {
		struct pollfd p[3] = { { .fd = child_err, .events = POLLIN } };

		if ((e = keeper_end(pid, &ws)) != 0)
			break;
		if ((killed = stopped() || now_ms() >= until))
			break;
		if (wait_fds(p, 1, until - now_ms()) > 0 && p[0].revents)
			read_child_err();
	}
	/* The keeper ends all of COMMAND (1 s at most) and exits: told to by
	 * SIGTERM when we end it early. It is waited for 2 s at most, never
	 * for ever; our exit hands it to init. */
	if (killed)
		kill(pid, SIGTERM);
	for (int i = 0; i < 200 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		(void)poll(NULL, 0, 10);
	if (child_err >= 0)
		close(child_err), child_err = -1;
	close(word), word = -1;
	return killed ? -1 : e == -2 ? -2 : ws;
}

/* --- The copy. --- */

enum fault { OK, F_READ, F_WRITE, F_SHRANK, F_BIG, F_SILENT, F_LATE, F_STOP, F_KEEPER };

/* Wait for the stream, draining COMMAND's stderr (which does not count as
 * the stream speaking): OK, or why not (F_KEEPER: COMMAND's keeper ended
 * before COMMAND did; its group is ended). */
static enum fault wait_input(int in, pid_t keeper_pid)
{
	int64_t quiet_end = now_ms() + opt.quiet_s * 1000, left, quiet;
	int ws;

	for (int r;;) {
		struct pollfd p[4] = { { .fd = in, .events = POLLIN }, { .fd = child_err, .events = POLLIN } };

		if (stopped())
			return F_STOP;
		if (keeper_pid && keeper_end(keeper_pid, &ws) == -2)
			return F_KEEPER;
		if ((left = left_ms()) <= 0 || (quiet = quiet_end - now_ms()) <= 0)
			return left <= 0 ? F_LATE : F_SILENT;
		if ((r = wait_fds(p, 2, left < quiet ? left : quiet)) > 0 && p[1].revents)
			read_child_err();
		if ((r > 0 && p[0].revents) || (r < 0 && errno != EINTR))
			return OK;  /* read() says what went wrong */
	}
}

/*
 * -U: n, the bytes written to data so far, on stdout: a regular file
 * rewritten in place (fwloadctl reads its one line while we write), anything
 * else a line each; at most every 100 ms unless last. Never waited for and
 * never fatal (SIGPIPE is blocked from the start: EPIPE): the answer comes
 * first. errno is left as it was (the copy's, for its report).
 */
static void progress(int64_t n, int last)
{
	static int64_t when;
	struct pollfd p = { .fd = 1, .events = POLLOUT };
	struct line l = { .len = 0 };
	int err = errno;

	if (!opt.upload || (!last && now_ms() - when < 100))
		return;
	when = now_ms();
	line_fmt(&l, "%d\n", (long long)n);
	if (pwrite(1, l.buf, l.len, 0) < 0 && errno == ESPIPE && poll(&p, 1, 0) == 1 && p.revents == POLLOUT)
		(void)!write(1, l.buf, l.len);
	errno = err;
}

/*
 * Copy in to data: a regular file of size bytes (size >= 0) by sendfile(),
 * a stream (size < 0) by splice(), both falling back to read/write. A
 * stream gets at most opt.max_size bytes: one more is "too big". *n counts
 * what went to data; errno says why on F_READ and F_WRITE.
 */
static enum fault copy(int in, int data, int64_t size, pid_t keeper_pid, int64_t *n)
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
			return OK;  /* the caller looks at the signals next */
		if (stopped())
			return F_STOP;
		if (left_ms() <= 0)
			return F_LATE;
		if (size < 0 && (f = wait_input(in, keeper_pid)) != OK)
			return f;
		if (fast && left > 0) {
			/* all at once (-U: a MiB a call, for its progress) */
			r = size >= 0 ? sendfile(data, in, &off, (size_t)(opt.upload && left > 1 << 20 ? 1 << 20 : left))
				      : splice(in, NULL, data, NULL, want, SPLICE_F_MOVE);
			if (r < 0 && (err = errno) == EINTR)
				continue;
			if (r < 0 && *n == 0 && (err == EINVAL || err == ENOSYS || err == EOPNOTSUPP ||
						 err == EBADF || err == ESPIPE)) {
				fast = 0;  /* not for these files: read/write */
				continue;
			}
			if (r < 0)  /* which side failed? for a file, ask the image */
				return size >= 0 && pread(in, &c, 1, off) < 0 ? F_READ : (errno = err, F_WRITE);
		} else {
			/* at the limit, one byte more means too big */
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
		progress(*n += r, 0);
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
 * starts with by openat2(RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS): no link
 * leads out, whenever it is swapped in. Where openat2 cannot (ENOSYS
 * before Linux 5.6 and under qemu-user; EXDEV for an absolute link or one
 * that leads out): walked (walk_path(), util.h), and its real path inside
 * a DIR's.
 */
static int open_path(void)
{
	static char real[PATH_MAX], root[PATH_MAX];
	struct { uint64_t flags, mode, resolve; } how = { O_PATH | O_CLOEXEC, 0, 0x08 | 0x02 };
	int p = -1, err = ENOSYS;

	for (int i = 0; i < opt.nroots && p < 0 && (err == ENOSYS || err == EXDEV || err == EAGAIN); i++) {
		const char *r = opt.roots[i], *rel = opt.image;
		int d;

		while (*r && *r == *rel)
			r++, rel++;
		if ((*r && strcmp(r, "/")) || (*rel != '/' && (rel == opt.image || rel[-1] != '/')))
			continue;  /* FILE's name does not start with DIR */
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
	if ((p = opt.nroots ? walk_path(opt.image, real) : open(opt.image, O_PATH | O_CLOEXEC)) < 0)
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
	close(p);
	return -1;
}

/*
 * The inode p holds, opened for reading through /proc/self/fd; without
 * /proc through its file handle, from FILE's directory (never a device)
 * on the same file system, never by name; where neither works, refused.
 * The fd and its status in st, or -1 with msg set.
 */
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

/* FILE, never a FIFO or a device: an O_PATH handle, fstat, then reopened. */
static int open_image(struct stat *st)
{
	struct stat pre;
	int fd = -1, p = open_path();

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
		goto close_path;
	if (fd >= 0)
		close(fd);
	fd = -1;
close_path:
	close(p);
	return fd;
}

/* --- The configuration cache's stamp (-I, -K). --- */

/* The stamp line: at most 4096 bytes (len counts on past them: too long). */
static const char magic[] = "# fwload-cache 1";
static struct { char buf[4097]; size_t len; } stamp;

static void st_put(char c)
{
	if (stamp.len < sizeof(stamp.buf) - 1)
		stamp.buf[stamp.len] = c;
	stamp.len++;
}

/*
 * " ENC ID" for path: ENC the path, every byte outside [A-Za-z0-9/._,+@=-]
 * as %XX; ID what stat(2) says (into *stp), DEV:INO:SIZE:MTIME.NS:CTIME.NS:MODE
 * (decimal, nanoseconds in 9 digits, MODE in octal), "-" when the path
 * does not exist (ENOENT, ENOTDIR), "?" for any other error: then -1.
 */
static int st_path(const char *path, struct stat *stp)
{
	struct line id = { .len = 0 };
	struct stat st = { .st_mode = 0 };
	int ok = 0;

	st_put(' ');
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((unsigned)((*p | 32) - 'a') < 26 || (unsigned)(*p - '0') < 10 || strchr("/._,+@=-", *p)) {
			st_put((char)*p);
		} else {
			st_put('%');
			st_put("0123456789ABCDEF"[*p >> 4]);
			st_put("0123456789ABCDEF"[*p & 15]);
		}
	}
	if (stat(path, &st) == 0)
		line_fmt(&id, " %u:%u:%u:%d.%9d:%d.%9d:%o", (long long)st.st_dev, (long long)st.st_ino,
			 (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec,
			 (long long)st.st_ctim.tv_sec, (long long)st.st_ctim.tv_nsec, (long long)st.st_mode);
	else
		line_fmt(&id, errno == ENOENT || errno == ENOTDIR ? " -" : (ok = -1, " ?"));
	for (size_t i = 0; i < id.len; i++)
		st_put(id.buf[i]);
	*stp = st;
	return ok;
}

/*
 * path opened for reading from its directory, neither one followed if a
 * link: the fd; -2 when the directory is not ours alone (ours_alone()),
 * -1 when path cannot be opened (errno; ENOENT: no such directory either).
 */
static int open_ours(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct line dir = { .len = 0 };
	struct stat st;
	int d, fd, err;

	line_fmt(&dir, "%s", !slash ? "." : slash == path ? "/" : path);
	if (slash > path)
		dir.buf[slash - path] = '\0';
	if ((d = open(dir.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 && errno == ENOENT)
		return -1;
	if (d < 0 || fstat(d, &st) < 0 || !ours_alone(&st)) {
		if (d >= 0)
			close(d);
		return -2;
	}
	fd = openat(d, slash ? slash + 1 : path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	err = errno;
	close(d);
	errno = err;
	return fd;
}

/*
 * -K: CACHE is a stamp line as -I prints it (what the caller read from its
 * cache: the decision's own inputs, whatever has replaced the cache file
 * since), or a regular file of our euid that nobody else may write, in a
 * directory of ours that nobody else may write (ours_alone()), neither a
 * link, its first line (at most 4096 bytes) the stamp of its inputs as -I prints it
 * now, its last line "fwload_cache_end=1". 0 if so; else -1, or -2 when
 * the directory is not ours alone, *why set.
 */
static int cache_fresh(const char *cache, const char **why)
{
	static const char end[] = "\nfwload_cache_end=1\n";
	static char head[4097], tail[sizeof(end) - 1], path[4097];
	struct stat st;
	ssize_t r;
	char *nl, *p, *q;
	int fd = -1, ok = -1;

	*why = "the stamp is longer than 4096 bytes";
	if (strncmp(cache, magic, sizeof(magic) - 1) == 0) {  /* the stamp itself */
		if (strlen(cache) >= sizeof(head))
			return -1;
		memcpy(head, cache, strlen(cache) + 1);
		goto compare;
	}
	*why = "its directory is not ours alone (a link, another's, or others can write it)";
	if ((fd = open_ours(cache)) == -2)
		return -2;
	*why = "cannot open it";
	if (fd < 0)
		return -1;
	*why = "not a regular file of ours that only we can write";
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !ours_alone(&st))
		goto close_cache;
	/* its first 4096 bytes, and its last line (from those, in a small file) */
	*why = "no end line: cut, or empty";
	if ((r = pread(fd, head, sizeof(head) - 1, 0)) < (ssize_t)sizeof(tail) || st.st_size < r)
		goto close_cache;
	if (st.st_size == r)
		memcpy(tail, head + r - sizeof(tail), sizeof(tail));
	else if (pread(fd, tail, sizeof(tail), st.st_size - (off_t)sizeof(tail)) != (ssize_t)sizeof(tail))
		goto close_cache;
	if (memcmp(tail, end, sizeof(tail)) != 0)
		goto close_cache;
	*why = "no stamp line";
	if ((head[r] = '\0', !(nl = strchr(head, '\n'))) || memcmp(head, magic, sizeof(magic) - 1) != 0)
		goto close_cache;
	*nl = '\0';
compare:
	*why = "an input changed";
	/* " ENC ID" pairs: each ENC decoded, that path stamped again, the
	 * whole compared (what -I would not write never matches). */
	memcpy(stamp.buf, magic, stamp.len = sizeof(magic) - 1);
	for (p = head + stamp.len; *p == ' ';) {
		for (q = path, p++; *p && *p != ' '; q++, p++) {
			unsigned hi = (unsigned)(p[1] - (p[1] <= '9' ? '0' : 'A' - 10)), lo;

			if ((*q = *p) != '%')
				continue;
			if (hi > 15 || (lo = (unsigned)(p[2] - (p[2] <= '9' ? '0' : 'A' - 10))) > 15)
				goto close_cache;
			*q = (char)(hi << 4 | lo);
			p += 2;
		}
		*q = '\0';
		if (*p != ' ' || st_path(path, &st) < 0)
			goto close_cache;
		for (p++; *p && *p != ' '; p++)
			;
	}
	ok = stamp.len == strlen(head) && memcmp(stamp.buf, head, stamp.len) == 0 ? 0 : -1;
close_cache:
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Is fd FD of process PID (fds: its /proc/PID/fd) the file st is of, open
 * for writing (its fdinfo's flags)? */
static int open_for_writing(int proc, int fds, const char *pid, const char *fd, const struct stat *st)
{
	struct line path = { .len = 0 };
	char info[256], *flags;
	unsigned long v = 0;
	struct stat o;
	ssize_t r = -1;
	int i;

	if (fstatat(fds, fd, &o, 0) < 0 || !same_file(&o, st))
		return 0;
	line_fmt(&path, "%s/fdinfo/%s", pid, fd);
	if ((i = openat(proc, path.buf, O_RDONLY | O_CLOEXEC)) >= 0) {
		r = read(i, info, sizeof(info) - 1);
		close(i);
	}
	info[r > 0 ? r : 0] = '\0';
	if (!(flags = strstr(info, "flags:\t")))
		return 0;
	for (flags += 7; *flags >= '0' && *flags <= '7'; flags++)
		v = v << 3 | (unsigned long)(*flags - '0');  /* octal */
	return (v & O_ACCMODE) != O_RDONLY;
}

/*
 * Is the file st is of (device and inode) open for writing in a process
 * (a copy still being written)? Every process's fds are looked at (links
 * followed: what is open) and, for one of st, its flags (fdinfo); ours and
 * those /proc does not show us are not. 0 when /proc cannot be read.
 */
static int being_written(const struct stat *st)
{
	static struct dirbuf procs, fds;
	int64_t me = getpid(), pid;
	const char *p, *fd;
	int found = 0;

	procs = (struct dirbuf){ .fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC) };
	while (!found && (p = dir_next(&procs))) {
		struct line path = { .len = 0 };

		if ((pid = parse_num(p, INT32_MAX, NULL)) <= 0 || pid == me)
			continue;
		line_fmt(&path, "%s/fd", p);
		fds = (struct dirbuf){ .fd = openat(procs.fd, path.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC) };
		while (!found && (fd = dir_next(&fds)))
			found = open_for_writing(procs.fd, fds.fd, p, fd, st);
		if (fds.fd >= 0)
			close(fds.fd);
	}
	if (procs.fd >= 0)
		close(procs.fd);
	return found;
}

/*
 * -I [-R REF] PATH...: the stamp line on stdout. UNSAFE (4) when a regular
 * file or a directory among PATH... is not root's alone (ours_alone(): its
 * content is not to be believed), one line on stderr for each. REF, a file the caller
 * made before it read any PATH: else CHANGED (7) when a regular file among
 * them may change again unseen (same size, same times), its change time
 * not before REF's, or, where times have no sub-second part (ext4 with
 * 128-byte inodes, FAT), not 2 s before it (or REF is not there, or its
 * directory is not ours alone): a stamp for no cache. With -W (writers):
 * BUSY (5), before 7, when a regular file among them is open for writing
 * in a process (being_written()): still being written.
 */
static int print_stamp(char **paths, int n, const char *reffile, int writers)
{
	struct stat ref, st;
	int fd = reffile ? open_ours(reffile) : -1, recent = reffile && (fd < 0 || fstat(fd, &ref) < 0), unsafe = 0;
	int written = 0;

	if (fd >= 0)
		close(fd);
	memcpy(stamp.buf, magic, stamp.len = sizeof(magic) - 1);
	for (int i = 0; i < n; i++) {
		int64_t d;

		if (st_path(paths[i], &st) < 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
			continue;
		if (!ours_alone(&st)) {
			msg.len = 0;
			line_fmt(&msg, "not root's alone (owner %u, mode %o): %q", (long long)st.st_uid,
				 (long long)(st.st_mode & 07777), paths[i]);
			to_stderr(msg.buf);
			unsafe = 1;
		}
		if (writers && S_ISREG(st.st_mode) && !written && being_written(&st))
			written = 1;
		if (!reffile || recent || !S_ISREG(st.st_mode))
			continue;
		d = (int64_t)ref.st_ctim.tv_sec - st.st_ctim.tv_sec;
		recent = st.st_ctim.tv_nsec ? d < 0 || (d == 0 && st.st_ctim.tv_nsec >= ref.st_ctim.tv_nsec) : d < 2;
	}
	st_put('\n');
	if (stamp.len > sizeof(stamp.buf) - 1)
		usage("-I: the stamp would be longer than 4096 bytes");
	return write_all(1, stamp.buf, stamp.len) < 0 ? EX_SYSTEM : unsafe ? UNSAFE : written ? BUSY :
	       recent ? CHANGED : 0;
}

/* --- The request and its lock. --- */

/* Open SYSFS/DEVPATH and its loading, waiting up to -t for them (not with
 * -e: the request was there, so not there now is gone). */
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
 * One answerer per request: an exclusive flock on LOCKDIR/DEV-INO, the
 * device and inode numbers of the request's directory (a new request at the
 * same DEVPATH is a new kernfs node: a new lock, whatever an old answerer
 * still holds). LOCKDIR is made 0700 when missing and used only when it is
 * a directory of our euid that nobody else can write: then only root can
 * open, hold or delay the lock. The holder removes the file after its
 * answer; a file removed under a new holder is taken again. The lock's fd;
 * -2 when another answerer holds it; -1 when there is no lock to take
 * (*why: answer anyway).
 */
static int lock_request(int reqdir, int *lockdir, struct line *name, const char **why)
{
	struct stat a;
	int fd;

	*why = "cannot stat the request";
	if (request_key(reqdir, name) < 0)
		return -1;
	*why = "cannot open the lock directory";
	if ((*lockdir = open(opt.lockdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 && errno == ENOENT) {
		/* its parent, the run directory, first */
		if (mkdir(opt.lockdir, 0700) < 0 && errno == ENOENT && mkdir_parent(opt.lockdir, 0700) == 0)
			(void)mkdir(opt.lockdir, 0700);
		*lockdir = open(opt.lockdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
		close(fd);  /* its holder answered and removed it */
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

struct load { int dir, loading, data, img, in; pid_t pid; };

/*
 * The load, after the lock: open the image, start COMMAND, "1", the copy.
 * Returns the verdict: LOADED (commit now), ABORTED, STOPPED or GONE (the
 * request ended under us), with the reason in msg.
 */
static int load(struct load *l)
{
	struct stat st, now;
	int64_t n = 0, left, quiet = opt.quiet_s * 1000;
	int ws = 0;
	enum fault f;
	char c;

	if (strcmp(opt.image, "-") == 0)
		l->in = 0;
	else if ((l->img = l->in = open_image(&st)) < 0)
		return ABORTED;
	if (opt.cmd && !(l->pid = start_cmd(l->img >= 0 ? l->img : 0, &l->in)))
		return ABORTED;
	if ((l->data = openat(l->dir, "data", O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0)
		return fail("cannot open %q/data%e", req, errno), gone() ? GONE : ABORTED;
	if (answer(l->loading, "1") < 0)
		return fail("cannot start: write 1 to %q/loading%e", req, errno), gone() ? GONE : ABORTED;
	/* Answered by another between its unlock and our lock (the directory
	 * goes a little after the answer): the kernel ignored our "1", and
	 * loading reads 0 (done or aborted), not 1. Not ours: left alone. */
	if (pread(l->loading, &c, 1, 0) == 1 && c == '0')
		return fail("%q was answered by another before this answer; left alone", opt.devpath), BUSY;
	f = copy(l->in, l->data, l->img >= 0 && !l->pid ? st.st_size : -1, l->pid, &n);
	progress(n, 1);
	if (l->pid && f == OK) {  /* EOF: COMMAND has the silence limit to exit */
		ws = end_cmd(l->pid, (left = left_ms()) < quiet ? left : quiet);
		l->pid = 0;
		if (ws == -1)
			f = left < quiet ? F_LATE : F_SILENT;
		else if (ws == -2)
			f = F_KEEPER;
	}
	if (f == F_STOP || stopped())
		return fail("stopped by signal %d", (long long)stopped()), STOPPED;
	if (f == F_READ)
		fail("cannot read %q%e", opt.source, errno);
	else if (f == F_WRITE)
		return fail("cannot write %q/data%e", req, errno), gone() ? GONE : ABORTED;
	else if (f == F_SHRANK)
		fail("file shrank while being copied: %q", opt.image);
	else if (f == F_BIG)
		fail("more than %d bytes from %q", (long long)opt.max_size, opt.source);
	else if (f == F_SILENT)
		fail("nothing for %d s from %q", (long long)opt.quiet_s, opt.source);
	else if (f == F_LATE)
		fail("deadline of %d s passed reading %q", (long long)opt.deadline_s, opt.source);
	else if (f == F_KEEPER)
		fail(WIFEXITED(keeper_ws) ? "the keeper of %q ended (exit status %d) before it did: its process group ended"
					  : "the keeper of %q was killed by signal %d before it ended: its process group ended",
		     opt.cmd[0], (long long)(WIFEXITED(keeper_ws) ? WEXITSTATUS(keeper_ws) : WTERMSIG(keeper_ws)));
	else if (opt.cmd && ws != 0) {
		fail(WIFEXITED(ws) ? "%q failed (exit status %d) on %q" : "%q killed by signal %d on %q",
		     opt.cmd[0], (long long)(WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws)),
		     l->img >= 0 ? opt.image : "standard input");
		if (child_len)
			line_fmt(&msg, ": %q", child_line);
	} else if (n == 0) {
		fail("empty image from %q", opt.source);
	} else if (l->img >= 0 && (fstat(l->img, &now) < 0 || now.st_size != st.st_size ||
				   now.st_ino != st.st_ino || now.st_dev != st.st_dev ||
				   now.st_mtim.tv_sec != st.st_mtim.tv_sec || now.st_mtim.tv_nsec != st.st_mtim.tv_nsec ||
				   now.st_ctim.tv_sec != st.st_ctim.tv_sec || now.st_ctim.tv_nsec != st.st_ctim.tv_nsec ||
				   (!opt.cmd && pread(l->img, &c, 1, (off_t)n) != 0))) {
		fail("file changed while being copied: %q", opt.image);
	} else {
		msg.len = 0;
		line_fmt(&msg, opt.upload ? "handed over %q (%d bytes, %d ms) from %q to %q" :
					    "loaded %q (%d bytes, %d ms) from %q for %q", opt.name, (long long)n,
			 (long long)(now_ms() - opt.start), opt.source, opt.devpath);
		return LOADED;
	}
	return ABORTED;
}

/* An attribute of dir, its first line (at most n - 1 bytes), or "". */
static void read_attr(int dir, const char *attr, char *buf, size_t n)
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

/* -U: the upload device is idle (status "idle") and nobody is writing an
 * image to it (loading not "1"): 1; else 0, msg set. */
static int upload_idle(int dir)
{
	char status[32], loading[8];

	read_attr(dir, "status", status, sizeof(status));
	read_attr(dir, "loading", loading, sizeof(loading));
	if (strcmp(status, "idle") != 0)
		fail("%q is not idle (its status: %q); left alone", opt.devpath, status);
	else if (strcmp(loading, "1") == 0)
		fail("an image is being written to %q (its loading: 1); left alone", opt.devpath);
	else
		return 1;
	return 0;
}

static int run(int cancel)
{
	struct load l = { .dir = -1, .data = -1, .img = -1, .in = -1 };
	struct line name = { .len = 0 };
	const char *no_lock = "", *what = opt.upload ? "upload" : "request";
	int status, lock, lockdir = -1;

	if ((l.loading = open_request(&l.dir)) < 0 && opt.seen && errno == ENOENT && !stopped()) {
		fail("%q is gone: answered by another; left alone", opt.devpath);
		status = BUSY;  /* -e: it was there; not ours to say more */
		goto close_request;
	}
	if (l.loading < 0) {
		fail("no %s: cannot open %q/loading%e%s", opt.upload ? "firmware-upload device" : "request", req,
		     errno, stopped() ? "; stopped by a signal" : "");
		say(ERR, msg.buf, 1);
		return stopped() ? STOPPED : EX_SYSTEM;
	}
	/* The kind check, one way or the other (-U). */
	if ((request_kind(l.dir) == REQ_UPLOAD) != opt.upload) {
		fail(opt.upload ? "%q is a pending request, not a firmware-upload device: the firmware agent answers it; left alone"
				: "%q is a firmware-upload device, not a request; left alone", opt.devpath);
		status = NOT_REQUEST;
		goto close_request;
	}
	if ((lock = lock_request(l.dir, &lockdir, &name, &no_lock)) == -2) {
		fail(opt.upload ? "another upload holds %q; left alone" : "another answerer holds %q; left alone",
		     opt.devpath);
		status = BUSY;
		goto close_request;
	}
	if (opt.upload && !upload_idle(l.dir)) {  /* checked under the lock; nothing written */
		if (lock >= 0)
			unlinkat(lockdir, name.buf, 0), close(lock);
		status = BUSY;
		goto close_request;
	}
	if (cancel) {
		status = CANCELLED;
		msg.len = 0;
		line_fmt(&msg, "cancelled %q for %q", opt.name, opt.devpath);
	} else if ((status = load(&l)) == LOADED && answer(l.loading, "0") < 0) {
		fail("cannot commit: write 0 to %q/loading%e", req, errno);
		status = gone() ? GONE : ABORTED;
	}
	/* The one answer: "0" is in, or "-1" goes in now. */
	if (status == GONE)
		line_fmt(&msg, "; the %s is gone", what);
	else if (status == ABORTED || status == STOPPED)
		line_fmt(&msg, opt.upload ? "; upload aborted, nothing handed over" : "; request aborted");
	if (status != LOADED && status != BUSY && answer(l.loading, "-1") < 0 && !gone())
		line_fmt(&msg, "; cannot write -1%e", errno);
	if (lock >= 0) {  /* answered: the lock goes, then we talk */
		unlinkat(lockdir, name.buf, 0);
		close(lock);
	} else if (status != BUSY) {
		line_fmt(&msg, "; answered without a lock (%s %q)", no_lock, opt.lockdir);
	}
	if (opt.note && status != BUSY)
		line_fmt(&msg, "; %q", opt.note);
	if (status != BUSY)  /* answered by another: its line says */
		say(status == LOADED ? INFO : status == CANCELLED ? WARN : ERR, msg.buf, status != LOADED);
	if (l.pid)
		end_cmd(l.pid, 0);
	if (l.in > 0 && l.in != l.img)
		close(l.in);
	if (l.img >= 0)
		close(l.img);
	if (l.data >= 0)
		close(l.data);
close_request:
	if (status == BUSY || status == NOT_REQUEST) {  /* not ours to answer: stderr only */
		if (opt.note)
			line_fmt(&msg, "; %q", opt.note);
		to_stderr(msg.buf);
	}
	if (lockdir >= 0)
		close(lockdir);
	if (l.loading >= 0)
		close(l.loading), close(l.dir);
	return status;
}

/* --- -i, -P: the request's key, the pending requests. --- */

/* -i DEVPATH: the key of the request at SYSFS/DEVPATH (request_key(): the
 * name of its lock file and of its hold record) on stdout. 0; 6 a
 * firmware-upload device; 111 no request there. -U -i: the key of an
 * upload device (its lock file), 6 for a pending request. */
static int print_key(void)
{
	struct line key = { .len = 0 };
	int dir = open(req, O_RDONLY | O_DIRECTORY | O_CLOEXEC), kind = REQ_NONE;

	if (dir >= 0 && (kind = request_kind(dir)) == (opt.upload ? REQ_UPLOAD : REQ_PENDING) &&
	    request_key(dir, &key) == 0)
		line_put(&key, '\n');
	if (dir >= 0)
		close(dir);
	if (key.len)
		return write_all(1, key.buf, key.len) < 0 ? EX_SYSTEM : 0;
	line_fmt(&msg, kind == REQ_UPLOAD ? "%q is a firmware-upload device, not a request" :
		       kind == REQ_PENDING ? "%q is a pending request, not a firmware-upload device" :
		       opt.upload ? "no firmware-upload device at %q" : "no request at %q", req);
	to_stderr(msg.buf);
	return kind == REQ_NONE ? EX_SYSTEM : NOT_REQUEST;
}

/*
 * -P [COMMAND [ARG]...]: the pending requests, read through util.h's
 * lister (hotplugd's rescan reads the same). Without COMMAND, a record each
 * on stdout: DEVPATH, FIRMWARE and TIMEOUT, each ended by a NUL, as the
 * kernel wrote them (a uevent file of another shape: FIRMWARE and TIMEOUT
 * empty). With COMMAND (an absolute path): run for each, one at a time,
 * its environment ours with the event's variables (ACTION=add, DEVPATH,
 * SUBSYSTEM=firmware, FIRMWARE, TIMEOUT and ASYNC) in place of any we
 * have, fds 0-2 ours, signals reset. 0, or the highest status of COMMAND
 * (128 + N: killed by signal N), whatever the order the requests are
 * listed in; 111 when the list cannot be read.
 */
static int pending(char *const *cmd)
{
	static const char *const keys[] = { "ACTION=", "DEVPATH=", "SUBSYSTEM=", "FIRMWARE=", "TIMEOUT=", "ASYNC=" };
	static char rec[PATH_MAX + 4096 + 16];
	static struct pending p;
	extern char **environ;
	size_t n = 0, e = 0;
	int status = 0;

	while (environ[n])
		n++;
	const char *env[n + 7];

	/* No answer to guard here: signals as they came (a ^C ends us). */
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, ksig_zero, NULL, KSIG_BYTES);
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < sizeof(keys) / sizeof(keys[0]) && strncmp(environ[i], keys[k], strlen(keys[k])))
			k++;
		if (k == sizeof(keys) / sizeof(keys[0]))
			env[e++] = environ[i];
	}
	if (pending_open(&p, opt.sysfs) < 0) {
		if (errno == ENOENT)
			return 0;  /* no sysfs fallback in this kernel: nothing pending */
		line_fmt(&msg, "cannot read %q/class/firmware%e", opt.sysfs, errno);
		to_stderr(msg.buf);
		return EX_SYSTEM;
	}
	while (pending_next(&p)) {
		const char *name = p.name ? p.name + 9 : "", *to = p.timeout ? p.timeout + 8 : "";
		size_t m = 0;
		pid_t pid;
		int ws;

		if (!cmd) {
			memcpy(rec, p.devpath, p.devpath_len + 1);
			m = p.devpath_len + 1;
			memcpy(rec + m, name, strlen(name) + 1);
			m += strlen(name) + 1;
			memcpy(rec + m, to, strlen(to) + 1);
			if (write_all(1, rec, m + strlen(to) + 1) < 0)
				return close(p.d.fd), EX_SYSTEM;
			continue;
		}
		memcpy(rec, "DEVPATH=", 8);
		memcpy(rec + 8, p.devpath, p.devpath_len + 1);
		m = e;
		env[m++] = "ACTION=add";
		env[m++] = rec;
		env[m++] = "SUBSYSTEM=firmware";
		env[m++] = p.name ? p.name : "FIRMWARE=";
		if (p.name) {
			env[m++] = p.timeout;
			env[m++] = p.async;
		}
		env[m] = NULL;
		if ((pid = child_start(cmd[0], cmd, (char *const *)env, NULL, 0, "fwload")) < 0) {
			line_fmt(&msg, "cannot start %q%e", cmd[0], errno);
			to_stderr(msg.buf);
			close(p.d.fd);
			return EX_SYSTEM;
		}
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
		ws = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
		if (ws > status)
			status = ws;
	}
	return status;
}

/* --- The command line. --- */

int main(int argc, char **argv)
{
	const char *env = getenv("TIMEOUT"), *val = NULL, *lmsg = NULL, *cache = NULL, *ref = NULL, *why, *roots[argc];
	static struct line src;
	struct opts o = { .argc = argc, .argv = argv, .i = 1 };
	int c, cancel = 0, stamp_only = 0, key_only = 0, list = 0, writers = 0;

	opt.start = now_ms();
	if (!(opt.wait_s = request_timeout(env)))  /* the request's, a day at most */
		opt.wait_s = 60;
	opt.sysfs = (env = getenv("SYSFS")) && *env ? env : "/sys";
	opt.name = getenv("FIRMWARE");
	opt.log = "kmsg";
	opt.lockdir = FWLOAD_RUNDIR "/lock";
	opt.roots = roots;
	opt.deadline_s = 300;
	opt.max_size = 256 << 20;  /* linux-firmware's largest is far below */
	help_version(argc, argv, usage_text, "fwload " FWLOAD_VERSION "\n", 0);
	while ((c = opt_next(&o, "cevIiPUWs:t:T:S:n:l:w:r:L:K:k:R:", &val)) != -1) {
		if (c == '?' || c == ':')
			usage(c == '?' ? "unknown option" : "option wants a value");
		else if (c == 'c' || c == 'e' || c == 'v' || c == 'I' || c == 'i' || c == 'P' || c == 'U' || c == 'W')
			*(c == 'c' ? &cancel : c == 'e' ? &opt.seen : c == 'v' ? &opt.verbose : c == 'I' ? &stamp_only :
			  c == 'i' ? &key_only : c == 'U' ? &opt.upload : c == 'W' ? &writers : &list) = 1;
		else if (c == 's' || c == 'n' || c == 'w' || c == 'L' || c == 'K' || c == 'k' || c == 'R')
			*(c == 's' ? &opt.sysfs : c == 'n' ? &opt.name : c == 'w' ? &opt.note :
			  c == 'L' ? &lmsg : c == 'K' ? &cache : c == 'R' ? &ref : &opt.lockdir) = val;
		else if (c == 'r')
			roots[opt.nroots++] = val;
		else if (c == 't' && (opt.wait_s = parse_num(val, 86400, NULL)) < 0)
			usage("-t wants whole seconds, 0 to 86400");
		else if (c == 'T' && (opt.deadline_s = parse_num(val, 86400, NULL)) <= 0)
			usage("-T wants whole seconds, 1 to 86400");
		else if (c == 'S' && (opt.max_size = parse_num(val, (int64_t)2047 << 20, "KMG")) <= 0)
			usage("-S wants a size in bytes (K, M, G suffixes), 1 to 2047M");
		else if (c == 'l' && strcmp(val, "kmsg") && strcmp(val, "syslog") &&
			 strcmp(val, "none") && val[0] != '/')
			usage("-l wants kmsg, syslog, none or /FILE");
		else if (c == 'l')
			opt.log = val;
	}
	argc -= o.i;
	argv += o.i;
	/* -K CACHE alone reads and says nothing: no fd to fill, no answer
	 * to guard. Else the kernel may have started us with fds 0-2 closed. */
	if (!(cache && !argc && !cancel && !stamp_only && !list && !lmsg && !key_only)) {
		if (sanitize_fds() < 0)
			return EX_SYSTEM;
		sig_default(SIGCHLD);  /* waitpid() needs it, whatever we inherited */
	}
	if (opt.upload && (cancel || stamp_only || list || lmsg || cache))
		usage("-U goes with DEVPATH FILE or -i only");
	if ((ref || writers) && !stamp_only)
		usage(ref ? "-R goes with -I only" : "-W goes with -I only");
	if (stamp_only) {
		if (argc < 1 || cancel || lmsg || cache)
			usage("-I takes [-R REF] [-W] PATH... only");
		return print_stamp(argv, argc, ref, writers);
	}
	if (list) {
		if (cancel || lmsg || cache || key_only)
			usage("-P takes [COMMAND [ARG]...] only");
		if (argc && argv[0][0] != '/')
			usage("COMMAND must be an absolute path");
		return pending(argc ? argv : NULL);
	}
	if (key_only && (argc != 1 || cancel || lmsg || cache))
		usage("-i takes DEVPATH only");
	if (lmsg) {
		if (argc || cancel)
			usage("-L takes no other operands");
		line_fmt(&src, "%q", lmsg);
		say(WARN, src.buf, 0);
		return 0;
	}
	if (cache && !argc && !cancel)
		opt.devpath = NULL;  /* -K alone: the check only */
	else if (cancel || key_only ? argc != 1 : argc < 2)
		usage(cancel ? "-c takes DEVPATH only" : "want DEVPATH and FILE (or -)");
	else if (argv[0][0] != '/')
		usage("DEVPATH must start with /");
	else if (has_dots(argv[0]))
		usage("DEVPATH must not contain a . or .. component");
	else if (sysfs_path(req, opt.sysfs, argv[0]) < 0)
		usage("SYSFS/DEVPATH too long");
	else if (argc > 2 && argv[2][0] != '/')
		usage("COMMAND must be an absolute path");
	else if (opt.lockdir[0] != '/')
		usage("LOCKDIR must be an absolute path");
	else
		opt.devpath = argv[0];
	if (key_only)
		return print_key();
	if (opt.devpath)
		block_signals();  /* from here on the request may be written */
	/* The configuration the caller decided from must still be what is on
	 * disk: else nothing is written, and the caller decides again. */
	if (cache && (c = cache_fresh(cache, &why)) < 0) {
		if (strncmp(cache, magic, sizeof(magic) - 1) == 0)
			line_fmt(&msg, "the configuration stamp is stale: %s%s", why, opt.devpath ? "; nothing written" : "");
		else
			line_fmt(&msg, "configuration cache %q is stale: %s%s", cache, why,
				 opt.devpath ? "; nothing written" : "");
		if (opt.verbose)
			to_stderr(msg.buf);
		return c == -2 ? UNSAFE : CHANGED;
	}
	if (!opt.devpath)
		return 0;
	opt.image = cancel ? "" : argv[1];
	opt.cmd = argc > 2 ? argv + 2 : NULL;
	if (!opt.name || !*opt.name)
		opt.name = strrchr(opt.devpath, '/')[1] ? strrchr(opt.devpath, '/') + 1 : opt.devpath;
	opt.quiet_s = opt.wait_s ? opt.wait_s : 60;  /* a silent stream */
	line_fmt(&src, opt.cmd ? "%s via %s" : "%s",
		 strcmp(opt.image, "-") ? opt.image : "standard input", opt.cmd ? opt.cmd[0] : "");
	opt.source = src.buf;
	return run(cancel);
}
