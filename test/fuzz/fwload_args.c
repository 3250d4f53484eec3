/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for fwload's argument handling and request protocol.
 *
 * The input is split at NUL bytes into argv[1..]. fwload runs in-process
 * against a fake sysfs (regular files) in a private temp dir, which is also
 * the cwd, so "img" and "empty" name an image and an empty file. After each
 * run the invariants of the protocol are checked, and a violation aborts:
 *
 *   status 0     loading holds "10" and data is exactly the file named
 *                (or, for -L, loading untouched)
 *   status 1     loading holds "-1"
 *   status 2, 3  loading is empty (refused before "1") or ends in "-1"
 *   status 100   loading was not touched
 *   status 111   loading was not touched, or ends in "-1" (request gone)
 *
 * -s (another sysfs root) and -l (a log file) are not fuzzed: they could
 * make fwload write outside the temp dir; every run gets "-lnone" first, so
 * nothing reaches the host's kernel log. An argument naming a regular file
 * over 1 MiB is skipped too (fwload would copy it), and so is one naming an
 * executable file: fwload runs a COMMAND given after FILE (an absolute
 * path), so only "cannot run" is fuzzed there. Waits (poll) do not sleep.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

static jmp_buf fuzz_jmp;
static int fuzz_status;

static void fuzz_exit(int status)
{
	fuzz_status = status;
	longjmp(fuzz_jmp, 1);
}

#include <poll.h>
#include <signal.h>

static int fuzz_poll(struct pollfd *fds, nfds_t n, int ms)
{
	(void)ms;
	return n ? poll(fds, n, 0) : 0;
}

#define exit(s) fuzz_exit(s)
#define poll fuzz_poll
#define main fwload_main
#include "../../fwload.c"
#undef main
#undef exit
#undef poll

static char tmpdir[] = "/tmp/fwload-fuzz.XXXXXX";
static char image[5000];

static void put_file(const char *path, const void *buf, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, n) != (ssize_t)n)
		abort();
	close(fd);
}

static size_t get(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, size);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

/* Do files A and B hold the same bytes? (Both at most 1 MiB here.) */
static int same_content(const char *a, const char *b)
{
	static char x[(1 << 20) + 1], y[(1 << 20) + 1];
	size_t n = get(a, x, sizeof(x));

	return n == get(b, y, sizeof(y)) && memcmp(x, y, n) == 0;
}

/*
 * fwload's run ends in exit(), here a longjmp: what it left open (its
 * signalfd, the request's directory, a lock) is closed after each input,
 * every fd the process did not have before the first (libFuzzer's own
 * stay), and its state reset: an input must not see the last one's.
 */
static unsigned char fd_before[1024];

static void fds_note(void)
{
	for (int fd = 0; fd < 1024; fd++)
		fd_before[fd] = fcntl(fd, F_GETFD) >= 0;
}

static void fds_reset(void)
{
	for (int fd = 3; fd < 1024; fd++)
		if (!fd_before[fd])
			close(fd);
	sigfd = -1;
	stamp.len = 0;
	req[0] = '\0';
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(tmpdir) || chdir(tmpdir) < 0)
		abort();
	mkdir("sys", 0755);
	mkdir("sys/devices", 0755);
	mkdir("sys/devices/fw", 0755);
	for (size_t i = 0; i < sizeof(image); i++)
		image[i] = (char)(i * 131 + 7);
	put_file("img", image, sizeof(image));
	put_file("empty", "", 0);
	setenv("SYSFS", "sys", 1);
	setenv("PATH", "/nonexistent", 1);
	unsetenv("TIMEOUT");
	unsetenv("FIRMWARE");
	/* "-" reads standard input: make it an empty stream, never a tty. */
	int fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, 0) < 0)
		abort();
	close(fd);
	fds_note();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[4096 + 1], *argv[18], loading[64], lnone[] = "-lnone";
	size_t n = size < 4096 ? size : 4096, nl;
	int argc = 2, status;
	sigset_t none;

	memcpy(buf, data, n);
	buf[n] = '\0';
	argv[0] = "fwload";
	argv[1] = lnone;
	for (char *p = buf; p < buf + n + 1 && argc < 17; p += strlen(p) + 1) {
		struct stat st;

		if (p[0] == '-' && p[1] != '-' && (strchr(p, 's') || strchr(p, 'l')))
			return 0;  /* -s, -l: see above */
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_size > (1 << 20) || access(p, X_OK) == 0))
			return 0;
		argv[argc++] = p;
	}
	argv[argc] = NULL;

	put_file("sys/devices/fw/loading", "", 0);
	put_file("sys/devices/fw/data", "", 0);
	memset(&opt, 0, sizeof(opt));
	stop_signal = 0;
	msg.len = 0;
	child_len = 0;
	child_nl = 0;
	child_err = -1;
	if (setjmp(fuzz_jmp) == 0)
		status = fwload_main(argc, argv);
	else
		status = fuzz_status;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);  /* fwload blocks its stop signals */
	fds_reset();

	nl = get("sys/devices/fw/loading", loading, sizeof(loading) - 1);
	loading[nl] = '\0';
	switch (status) {
	case 0:
		if (nl == 0 && !opt.image)
			break;  /* -L MESSAGE: one log line, no request */
		if (strcmp(loading, "10") || !opt.image || !same_content("sys/devices/fw/data", opt.image))
			abort();
		break;
	case 1:
		if (strcmp(loading, "-1"))
			abort();
		break;
	case 2:
	case 3:
		if (nl && (nl < 2 || strcmp(loading + nl - 2, "-1")))
			abort();
		break;
	case 5:   /* another answerer (or uploader) holds it; nothing written */
	case 6:   /* not ours: an upload device, or (-U) a pending request */
	case 7:   /* -K: the stamp or cache is no longer fresh; nothing written */
	case 100:
		if (nl)
			abort();
		break;
	case 111:
		if (nl && (nl < 2 || strcmp(loading + nl - 2, "-1")))
			abort();
		break;
	default:
		abort();
	}
	return 0;
}
