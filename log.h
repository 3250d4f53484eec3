/* SPDX-License-Identifier: MIT */
/*
 * log.h - the log sinks of fwload's lines (fwload's -l, fwload-log's):
 * the kernel log, syslog, a file; none can hold its caller. hotplugd
 * writes its own lines to the kernel log with kmsg_write().
 *
 *   kmsg_write, KMSG_MAX              one kernel log record
 *   log_line                          one line to a sink: kmsg, syslog, /FILE
 */
#ifndef FWLOAD_LOG_H
#define FWLOAD_LOG_H

#include <sched.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "util.h"

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

#endif
