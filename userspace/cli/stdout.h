/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: standard output, written a buffer of whole lines at a time,
 * and the messages on standard error, which follow the lines before them.
 */
#ifndef KEVENT_WATCH_STDOUT_H
#define KEVENT_WATCH_STDOUT_H

#include <stdbool.h>
#include <stddef.h>

/* Add @len bytes of whole lines to the output. */
void out_add(const char *s, size_t len);

/* Write what the output holds. Return: as output_status(). */
int flush_output(void);

/*
 * How writing the output went. Return: 0, STOP_QUIET (the reader went
 * away), or -1 (said once).
 */
int output_status(void);

/* Is standard output a pipe or socket, whose reader can go away? */
bool output_can_close(void);

/* Free the output's buffer, at exit, once it was flushed. */
void output_free(void);

/* A message on standard error, after the lines printed before it. */
void __attribute__((format(printf, 1, 2))) warn_user(const char *fmt, ...);

/* Say @msg and where help is. Return: EXIT_USAGE. */
int usage_error(const char *msg);

#endif /* KEVENT_WATCH_STDOUT_H */
