/* SPDX-License-Identifier: MIT */
/*
 * fwload-stamp - the configuration's stamp: which files a decision was
 * made from, and whether they are still what they were.
 *
 *   fwload-stamp [-R REF] [-W] [-N] PATH...   the stamp line on stdout
 *   fwload-stamp -K CACHE|STAMP          is it fresh, and may it be run?
 *
 * A stamp is "# fwload-cache 1" and, for each PATH, " ENC ID": the path
 * (every byte outside [A-Za-z0-9/._,+@=-] as %XX) and what stat(2) says of
 * it. firmware.agent stamps fwload.conf, the rules file, the manifest and
 * the rest of its configuration's inputs before it reads them, keeps the
 * stamp as the first line of its cache, and asks -K before it runs the
 * cache on an event: a cache that is not root's alone, in a run directory
 * that is not, or whose inputs changed, is never run. A file or directory
 * among PATH... that is not root's alone is named (its content is not to
 * be believed), unless -N says that something else vouches for them (a
 * signed manifest and its signature: the signature's check, fwload-verify,
 * judges the keys too); -W says whether a regular file is still being
 * written.
 *
 * Exit status: 0 fresh (-K) or stamped; 4 a PATH not root's alone, or
 * (-K) CACHE's directory not ours alone; 5 (-W) a PATH open for writing in
 * a process; 7 stale (-K), or (-R) a PATH changed too recently to be
 * cached; 100 usage; 111 system error.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include "util.h"

enum { UNSAFE = 4, BUSY = 5, CHANGED = 7 };

static const char usage_text[] =
	"usage: fwload-stamp [-R REF] [-W] [-N] PATH...\n"
	"       fwload-stamp [-v] -K CACHE|STAMP\n"
	"       fwload-stamp --help | --version\n"
	"The stamp of a configuration's inputs on stdout; -K: is CACHE (or STAMP) fresh,\n"
	"CACHE root's alone in a directory of root's alone? 0 yes, 7 stale, 4 its\n"
	"directory not ours alone. 4: a PATH not root's alone (-N: not asked); -W 5: a\n"
	"PATH being written; -R 7: a PATH changed after REF.\n";

#define say(...) say_as("fwload-stamp", __VA_ARGS__)

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
 * -K: CACHE is a stamp line as we print it (what the caller read from its
 * cache: the decision's own inputs, whatever has replaced the cache file
 * since), or a regular file of our euid that nobody else may write, in a
 * directory of ours that nobody else may write (ours_alone()), neither a
 * link, its first line (at most 4096 bytes) the stamp of its inputs as we print it
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
	 * whole compared (what we would not write never matches). */
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
 * [-R REF] [-W] [-N] PATH...: the stamp line on stdout. UNSAFE (4) when a regular
 * file or a directory among PATH... is not root's alone (ours_alone(): its
 * content is not to be believed), one line on stderr for each; with anyone
 * (-N) not asked: their content is vouched for otherwise, and 7 must not
 * hide behind a 4 the caller expects. REF, a file the caller
 * made before it read any PATH: else CHANGED (7) when a regular file among
 * them may change again unseen (same size, same times), its change time
 * not before REF's, or, where times have no sub-second part (ext4 with
 * 128-byte inodes, FAT), not 2 s before it (or REF is not there, or its
 * directory is not ours alone): a stamp for no cache. With -W (writers):
 * BUSY (5), before 7, when a regular file among them is open for writing
 * in a process (being_written()): still being written.
 */
static int print_stamp(char *const *paths, int n, const char *reffile, int writers, int anyone)
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
		if (!anyone && !ours_alone(&st)) {
			say("not root's alone (owner %u, mode %o): %q", (long long)st.st_uid, (long long)(st.st_mode & 07777),
			    paths[i]);
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
	if (stamp.len > sizeof(stamp.buf) - 1) {
		say("the stamp would be longer than 4096 bytes");
		return EX_USAGE;
	}
	return write_all(1, stamp.buf, stamp.len) < 0 ? EX_SYSTEM : unsafe ? UNSAFE : written ? BUSY :
	       recent ? CHANGED : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .argc = argc, .argv = argv, .i = 1 };
	const char *val = NULL, *cache = NULL, *ref = NULL, *why;
	int c, writers = 0, verbose = 0, anyone = 0;

	if (sanitize_fds() < 0)
		return EX_SYSTEM;
	help_version(argc, argv, usage_text, "fwload-stamp " FWLOAD_VERSION "\n", 0);
	while ((c = opt_next(&o, "vWNK:R:", &val)) != -1) {
		if (c == '?' || c == ':') {
			say(c == '?' ? "unknown option" : "option wants a value");
			(void)write_all(2, usage_text, sizeof(usage_text) - 1);
			return EX_USAGE;
		}
		if (c == 'v' || c == 'W' || c == 'N')
			*(c == 'v' ? &verbose : c == 'W' ? &writers : &anyone) = 1;
		else
			*(c == 'K' ? &cache : &ref) = val;
	}
	if (cache ? o.i != argc || ref || writers || anyone : o.i == argc) {
		say(cache ? "-K takes CACHE or STAMP alone" : "want PATH...");
		(void)write_all(2, usage_text, sizeof(usage_text) - 1);
		return EX_USAGE;
	}
	if (!cache)
		return print_stamp(argv + o.i, argc - o.i, ref, writers, anyone);
	if ((c = cache_fresh(cache, &why)) == 0)
		return 0;
	if (verbose && strncmp(cache, magic, sizeof(magic) - 1) == 0)
		say("the stamp is stale: %s", why);
	else if (verbose)
		say(c == -2 ? "%q may not be run: %s" : "%q is stale: %s", cache, why);
	return c == -2 ? UNSAFE : CHANGED;
}
