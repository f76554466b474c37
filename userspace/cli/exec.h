/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: running the --exec command for a record.
 */
#ifndef KEVENT_WATCH_EXEC_H
#define KEVENT_WATCH_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "output.h"

/* After SIGTERM, how long a timed-out command has before SIGKILL. */
#define EXEC_GRACE_MS 1000

/* How a command ended. */
enum exec_end {
	EXEC_EXITED, /* @status is its exit status */
	EXEC_SIGNALED, /* @status is the signal that killed it */
	EXEC_TIMED_OUT, /* ran past the timeout, and was killed */
	EXEC_STOPPED, /* not run, or killed: kevent-watch got SIGINT/SIGTERM */
	EXEC_FAILED, /* could not be started: @status is the errno */
};

struct exec_result {
	enum exec_end end;
	int status;
};

/*
 * The environment of the command for @r: the entries of @base (such as
 * environ) but those of the names kevent-watch sets, then KEVENT_TYPE,
 * KEVENT_SOURCE, KEVENT_SEQ, KEVENT_TIME, KEVENT_CLASS, KEVENT_PATH,
 * KEVENT_ATTR, KEVENT_VALUE, KEVENT_ERROR, KEVENT_UNIT, KEVENT_SUBSYSTEM
 * and KEVENT_COALESCED, always set, empty when the record has no such
 * field. KEVENT_VALUE is the value as read, without its trailing newline,
 * not escaped, and cut at a NUL byte.
 * Return: a NULL-terminated array to free with exec_env_free(), or NULL
 * when out of memory.
 */
char **exec_env_new(const struct record *r, char *const *base);

void exec_env_free(char **env);

/*
 * Run "/bin/sh -c @cmd" with the environment @env, standard input from
 * /dev/null, standard output and error those of kevent-watch, in a process
 * group of its own, and wait for it to end. Past @timeout_ms (0: no limit),
 * or when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrives (its number is then
 * stored in @stop), the group gets SIGTERM, then SIGKILL once the command
 * ended or after EXEC_GRACE_MS. Nothing is run when @stop is set already.
 * Those signals and SIGCHLD are blocked while it runs; the command starts
 * with no signal blocked or ignored. The child is always reaped.
 */
void exec_run(const char *cmd, char *const env[], int64_t timeout_ms,
	      volatile sig_atomic_t *stop, struct exec_result *ret);

/*
 * The line that reports how @cmd ended (without a newline), such as
 * "--exec: 'false' exited with status 1", in @sb.
 * Return: false, with nothing added, when there is nothing to report (it
 * exited with status 0, or kevent-watch is stopping).
 */
bool exec_describe(struct sbuf *sb, const char *cmd, int64_t timeout_ms,
		   const struct exec_result *res);

#endif /* KEVENT_WATCH_EXEC_H */
