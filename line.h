/* SPDX-License-Identifier: MIT */
/*
 * line.h - messages: one line built in place, written whole. Every C
 * program here says what it says through these (util.h includes it).
 *
 *   struct line, line_fmt, line_end   one message built in place, %q escaped
 *   write_all, stderr_put, say_as     the one write loop; stderr, bounded
 *
 * Include it after the feature macros.
 */
#ifndef FWLOAD_LINE_H
#define FWLOAD_LINE_H

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

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
 *   %q  text from outside (an event, a file name): control bytes, DEL,
 *       backslashes and every byte that is not part of a UTF-8 character
 *       from U+00A0 up (utf8_char(): C1 controls such as CSI, U+009B, as
 *       UTF-8 or as the one byte an 8-bit terminal takes) as \xNN, so no
 *       name can forge a second log line or drive a terminal
 *   %d  a long long (cast every argument: varargs do not convert); %u and
 *       %o the same taken as unsigned, in decimal and octal; a width
 *       between % and the letter (%9d) pads with zeros in front
 *   %e  an int errno value as ": errno N (ENAME)"; the name for the codes
 *       these programs meet, from <errno.h>'s values (they differ between
 *       architectures); no strerror table in a static binary
 */
/* The length of the UTF-8 character at s when it is one from U+00A0 up
 * (not a C1 control, not overlong, no surrogate, at most U+10FFFF), else 0.
 * Never reads past a NUL. */
UTIL size_t utf8_char(const unsigned char *s)
{
	size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
		   s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	uint32_t v = s[0] & (0x7f >> n);

	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (!n || v < 0xa0 || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000) || (v >= 0xd800 && v <= 0xdfff) ||
	    v > 0x10ffff)
		return 0;
	return n;
}

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
				size_t u = *f == 'q' && c >= 0x80 ? utf8_char((const unsigned char *)s) : 0;

				while (u > 1) {  /* a whole character from U+00A0 up */
					line_put(l, *s++);
					u--;
					c = (unsigned char)*s;
				}
				if (*f == 'q' && !u && (c < ' ' || c == 0x7f || c == '\\' || c >= 0x80)) {
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
 * One line on standard error: NAME ": " (none for "") and line_fmt's f,
 * for the programs whose one sink it is (each defines say() as say_as()
 * with its name), and for child_start()'s child.
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

#endif
