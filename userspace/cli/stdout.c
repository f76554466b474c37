// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: standard output, written a buffer of whole lines at a time,
 * and the messages on standard error, which follow the lines before them.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stdout.h"
#include "stop.h"
#include "watch.h"

/*
 * Standard output: whole lines wait in out.buf, and are written once it
 * holds PIPE_BUF bytes, before kevent-watch waits for more events, before
 * an --exec command runs and before a message on stderr, so that a burst
 * of events costs a write() per PIPE_BUF bytes rather than per line, and a
 * line is never held while nothing else happens.
 *
 * Each write() is made once poll() says the output has room, and is a run
 * of whole lines of PIPE_BUF bytes at most, which a pipe takes whole: so
 * kevent-watch never sleeps in write(), where a signal or the --timeout
 * could not end it, and its reader never sees part of a line. A line
 * longer than PIPE_BUF goes in pieces, and only it can be cut when
 * kevent-watch stops. Once stopping, what the output takes at once is
 * written, and the lines it has no room for are dropped.
 */
static struct {
	char *buf;
	size_t len, size;
	int err; /* the first error writing, as errno */
	bool reported;
} out;

/*
 * The next write of @len bytes at @s: whole lines up to PIPE_BUF bytes, or
 * the first PIPE_BUF bytes of a longer line. A pipe that poll() says has
 * room takes PIPE_BUF bytes without blocking, and no more.
 */
static size_t out_piece(const char *s, size_t len)
{
	const char *nl;

	if (len <= PIPE_BUF)
		return len;
	nl = memrchr(s, '\n', PIPE_BUF);
	return nl ? (size_t)(nl - s) + 1 : PIPE_BUF;
}

/* Write what out.buf holds, as said above; remember the first error. */
static void flush_stdout(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = POLLOUT };
	size_t done = 0;
	ssize_t n;
	int r;

	while (!out.err && done < out.len) {
		r = wait_ready(&pfd, 1, -1);
		if (r < 0) {
			out.err = errno;
			break;
		}
		/* Stopping, and no room: the rest is dropped. */
		if (r == 0 && stopping())
			break;
		if (r == 0)
			continue;
		/* POLLERR or POLLHUP: write() says which error. */
		n = write(STDOUT_FILENO, out.buf + done,
			  out_piece(out.buf + done, out.len - done));
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			out.err = errno;
		else if (n > 0)
			done += n;
	}
	if (out.err || stopping())
		done = out.len;
	memmove(out.buf, out.buf + done, out.len - done);
	out.len -= done;
}

/* Add @len bytes of whole lines to the output. */
void out_add(const char *s, size_t len)
{
	size_t size;
	char *buf;

	if (out.err)
		return;
	if (out.len + len > out.size) {
		size = out.size ? out.size : 2 * PIPE_BUF;
		while (size < out.len + len)
			size *= 2;
		buf = realloc(out.buf, size);
		if (!buf) {
			out.err = ENOMEM;
			return;
		}
		out.buf = buf;
		out.size = size;
	}
	memcpy(out.buf + out.len, s, len);
	out.len += len;
	if (out.len >= PIPE_BUF)
		flush_stdout();
}

/* A message on stderr, after the lines printed before it. */
void __attribute__((format(printf, 1, 2))) warn_user(const char *fmt, ...)
{
	va_list ap;

	flush_stdout();
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/*
 * How writing standard output went. Return: 0, STOP_QUIET (the reader went
 * away), or -1 (said once).
 */
int output_status(void)
{
	if (!out.err)
		return 0;
	if (out.err == EPIPE)
		return STOP_QUIET;
	if (!out.reported) {
		fprintf(stderr, PROG ": cannot write output: %s\n",
			strerror(out.err));
		out.reported = true;
	}
	return -1;
}

/* Flush standard output. Return: 0, STOP_QUIET, or -1 (reported). */
int flush_output(void)
{
	flush_stdout();
	return output_status();
}

int usage_error(const char *msg)
{
	warn_user("%s\nTry '" PROG " --help' for more information.\n", msg);
	return EXIT_USAGE;
}

/* Is stdout a pipe or socket, whose reader can go away? */
bool output_can_close(void)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) < 0)
		return false;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
}

/* Free the output's buffer, at exit, once it was flushed. */
void output_free(void)
{
	free(out.buf);
	memset(&out, 0, sizeof(out));
}
