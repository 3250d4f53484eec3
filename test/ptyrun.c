/* SPDX-License-Identifier: MIT */
/*
 * ptyrun [-w COLS] COMMAND [ARG]... - run COMMAND on a pseudo-terminal of
 * its own, as if typed at one: the terminal is its controlling terminal,
 * COMMAND leads its session and is the foreground process group, the
 * window COLS columns wide (80). What COMMAND writes there is copied to
 * standard output byte for byte (no output processing: a "\n" stays one
 * byte). SIGUSR1 to ptyrun types the terminal's interrupt character
 * (Ctrl-C) into it: the kernel's line discipline sends SIGINT to the
 * foreground process group, as a key press does. Nothing else is typed.
 * COMMAND starts with every signal at its default action, as at a login
 * (ptyrun itself may have been started with SIGINT ignored).
 *
 * Exit status: COMMAND's (128 + N if signal N killed it); 111 when ptyrun
 * itself fails. For the tests of progress bars and of Ctrl-C (util-linux
 * script needs a terminal's input to type into; a busybox root has none).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

static int die(const char *what)
{
	fprintf(stderr, "ptyrun: %s: %s\n", what, strerror(errno));
	return 111;
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	struct termios t;
	sigset_t set;
	pid_t pid;
	int m, sfd, status = -1, i = 1;

	if (argc > 2 && strcmp(argv[1], "-w") == 0) {
		ws.ws_col = (unsigned short)atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || ws.ws_col == 0) {
		fputs("usage: ptyrun [-w COLS] COMMAND [ARG]...\n", stderr);
		return 100;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
		return die("cannot make a pseudo-terminal");
	if (ioctl(m, TIOCSWINSZ, &ws) < 0 || tcgetattr(m, &t) < 0)
		return die("cannot set the terminal");
	t.c_oflag &= ~(tcflag_t)OPOST;  /* output as written */
	if (tcsetattr(m, TCSANOW, &t) < 0 || (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0)
		return die("cannot set the terminal");
	if ((pid = fork()) < 0)
		return die("fork");
	if (pid == 0) {
		const char *name = ptsname(m);
		int s;

		/* every signal as a login gives it: default, unblocked (a
		 * shell that started us in the background ignores SIGINT) */
		for (int s = 1; s < NSIG; s++)
			signal(s, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		if (setsid() < 0 || !name || (s = open(name, O_RDWR)) < 0 || ioctl(s, TIOCSCTTY, 0) < 0)
			_exit(die("cannot open the terminal"));
		dup2(s, 0), dup2(s, 1), dup2(s, 2);
		if (s > 2)
			close(s);
		close(m);
		execvp(argv[i], argv + i);
		die(argv[i]);
		_exit(127);
	}
	for (;;) {
		struct pollfd p[2] = { { .fd = m, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };
		struct signalfd_siginfo si;
		char buf[4096];
		ssize_t r;
		int w;

		/* after COMMAND's end, what is left to read; a second at most */
		if (poll(p, 2, status < 0 ? -1 : 1000) == 0)
			break;
		if (p[0].revents) {
			if ((r = read(m, buf, sizeof(buf))) <= 0)
				break;  /* EIO: nothing has the terminal open */
			if (write(1, buf, (size_t)r) != r)
				return die("cannot write standard output");
		}
		if (p[1].revents && read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGUSR1) {
				char c = (char)(tcgetattr(m, &t) == 0 ? t.c_cc[VINTR] : 3);

				if (write(m, &c, 1) != 1)
					return die("cannot type Ctrl-C");
			} else if (waitpid(pid, &w, WNOHANG) == pid) {
				status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
			}
		}
	}
	if (status < 0) {
		int w;

		if (waitpid(pid, &w, 0) < 0)
			return die("waitpid");
		status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
	}
	return status;
}
