/* SPDX-License-Identifier: MIT */
/*
 * fwtrigger ATTR VALUE - write VALUE (no newline) to a test_firmware
 * trigger in a single write() and report how the request ended:
 *
 *   <errno> <milliseconds>      errno 0 when the write succeeded;
 *                               milliseconds with three decimals
 *
 * Exit status 0 when the write succeeded, 1 when it failed, 100 usage.
 * The shell cannot report the errno of a failed write to a redirection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	int fd, err = 0;
	ssize_t w;

	if (argc != 3) {
		fputs("usage: fwtrigger ATTR VALUE\n", stderr);
		return 100;
	}
	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "fwtrigger: cannot open %s: %s\n", argv[1], strerror(errno));
		return 100;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	w = write(fd, argv[2], strlen(argv[2]));
	if (w < 0)
		err = errno;
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(fd);
	long us = (long)(b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000;

	printf("%d %ld.%03ld\n", err, us / 1000, us % 1000);
	return err ? 1 : 0;
}
