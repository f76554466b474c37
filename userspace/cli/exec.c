// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: running the --exec command for a record.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

/* The variables set for the command, in the order they are added. */
static const char *const exec_vars[] = {
	"KEVENT_TYPE",	"KEVENT_SOURCE", "KEVENT_SEQ",	     "KEVENT_TIME",
	"KEVENT_CLASS", "KEVENT_PATH",	 "KEVENT_ATTR",	     "KEVENT_VALUE",
	"KEVENT_ERROR", "KEVENT_UNIT",	 "KEVENT_SUBSYSTEM", "KEVENT_COALESCED",
};

#define N_EXEC_VARS (sizeof(exec_vars) / sizeof(exec_vars[0]))

/* Is @entry ("NAME=value") one of the variables set for the command? */
static bool is_exec_var(const char *entry)
{
	size_t i, len;

	if (strncmp(entry, "KEVENT_", 7) != 0)
		return false;
	for (i = 0; i < N_EXEC_VARS; i++) {
		len = strlen(exec_vars[i]);
		if (strncmp(entry, exec_vars[i], len) == 0 && entry[len] == '=')
			return true;
	}
	return false;
}

/* "NAME=" then @len bytes of @value (up to a NUL byte), as a new string. */
static char *env_entry(const char *name, const char *value, size_t len)
{
	struct sbuf sb = { 0 };
	const char *s;
	char *entry;

	sbuf_adds(&sb, name);
	sbuf_addc(&sb, '=');
	if (value)
		sbuf_add(&sb, value, strnlen(value, len));
	s = sbuf_str(&sb);
	entry = s ? strdup(s) : NULL;
	sbuf_free(&sb);
	return entry;
}

static char *env_entry_str(const char *name, const char *value)
{
	return env_entry(name, value, value ? strlen(value) : 0);
}

char **exec_env_new(const struct record *r, char *const *base)
{
	struct sbuf num = { 0 };
	char **env, errbuf[16];
	size_t n = 0, i;
	bool event = r->type == RECORD_EVENT;

	for (i = 0; base && base[i]; i++)
		;
	env = calloc(i + N_EXEC_VARS + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; base && base[i]; i++) {
		if (is_exec_var(base[i]))
			continue;
		env[n] = strdup(base[i]);
		if (!env[n++])
			goto out_free;
	}

	env[n++] = env_entry_str("KEVENT_TYPE", event ? "event" : "state");
	env[n++] = env_entry_str("KEVENT_SOURCE", r->source);
	if (event && !r->no_seq)
		sbuf_printf(&num, "%llu", (unsigned long long)r->seq);
	env[n++] = env_entry_str("KEVENT_SEQ", sbuf_str(&num));
	sbuf_reset(&num);
	format_time(&num, r->time_ns);
	env[n++] = env_entry_str("KEVENT_TIME", sbuf_str(&num));
	env[n++] = env_entry_str("KEVENT_CLASS", r->cls);
	env[n++] = env_entry_str("KEVENT_PATH", r->path);
	env[n++] = env_entry_str("KEVENT_ATTR", r->attr);
	env[n++] = env_entry("KEVENT_VALUE", r->error ? NULL : r->value,
			     r->value_len);
	env[n++] = env_entry_str(
		"KEVENT_ERROR", r->error ? errno_name(r->error, errbuf) : NULL);
	env[n++] = env_entry_str("KEVENT_UNIT", r->unit);
	env[n++] = env_entry_str("KEVENT_SUBSYSTEM", r->subsystem);
	sbuf_reset(&num);
	if (event)
		sbuf_printf(&num, "%u", r->coalesced);
	env[n++] = env_entry_str("KEVENT_COALESCED", sbuf_str(&num));
	sbuf_free(&num);
	for (i = n - N_EXEC_VARS; i < n; i++)
		if (!env[i])
			goto out_free;
	return env;

out_free:
	/* Entries after a failed one may be set: free up to @n. */
	for (i = 0; i < n; i++)
		free(env[i]);
	free(env);
	return NULL;
}

void exec_env_free(char **env)
{
	size_t i;

	if (!env)
		return;
	for (i = 0; env[i]; i++)
		free(env[i]);
	free(env);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* In the child: set up and exec the shell. Only async-signal-safe calls. */
static void __attribute__((noreturn))
exec_child(const char *cmd, char *const env[])
{
	char *const argv[] = { "sh", "-c", (char *)cmd, NULL };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int fd;

	setpgid(0, 0);
	/* Ignored signals stay ignored across exec: SIGPIPE is, here. */
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
		_exit(126);
	if (fd != STDIN_FILENO)
		close(fd);
	/* Standard descriptors kevent-watch opened itself are close-on-exec. */
	fcntl(STDOUT_FILENO, F_SETFD, 0);
	fcntl(STDERR_FILENO, F_SETFD, 0);

	execve("/bin/sh", argv, env);
	_exit(127);
}

/* Has the child ended? It is left a zombie, so its group id stays its. */
static bool child_ended(pid_t pid)
{
	siginfo_t si = { 0 };

	if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR;
	return si.si_pid == pid;
}

void exec_run(const char *cmd, char *const env[], int64_t timeout_ms,
	      volatile sig_atomic_t *stop, struct exec_result *ret)
{
	enum { RUNNING, TERMINATING, KILLED } phase = RUNNING;
	struct timespec ts, *tsp;
	uint64_t deadline = 0, now;
	bool timed_out = false, stopped = false;
	sigset_t mask, orig;
	int sig, status = 0;
	pid_t pid;

	*ret = (struct exec_result){ .end = EXEC_STOPPED };
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGQUIT);
	sigprocmask(SIG_BLOCK, &mask, &orig);
	if (*stop)
		goto out_restore;

	/* Our lines come before the command's. */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		*ret = (struct exec_result){ .end = EXEC_FAILED,
					     .status = errno };
		goto out_restore;
	}
	if (pid == 0)
		exec_child(cmd, env);
	/* Also here, so that the group exists before it may be killed. */
	setpgid(pid, pid);

	if (timeout_ms > 0)
		deadline = now_ms() + timeout_ms;
	while (!child_ended(pid)) {
		tsp = NULL;
		if (deadline) {
			now = now_ms();
			now = now < deadline ? deadline - now : 0;
			ts.tv_sec = now / 1000;
			ts.tv_nsec = now % 1000 * 1000000;
			tsp = &ts;
		}
		sig = sigtimedwait(&mask, NULL, tsp);
		if (sig > 0 && sig != SIGCHLD) {
			*stop = sig;
			stopped = true;
		} else if (sig < 0 && errno == EAGAIN) {
			if (phase == RUNNING) {
				timed_out = true;
			} else if (phase == TERMINATING) {
				kill(-pid, SIGKILL);
				phase = KILLED;
				deadline = 0;
			}
		}
		if (phase == RUNNING && (timed_out || stopped)) {
			kill(-pid, SIGTERM);
			phase = TERMINATING;
			deadline = now_ms() + EXEC_GRACE_MS;
		}
	}
	/* What is left of its group after SIGTERM does not get a grace. */
	if (phase == TERMINATING)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;

	if (stopped)
		ret->end = EXEC_STOPPED;
	else if (timed_out)
		ret->end = EXEC_TIMED_OUT;
	else if (WIFSIGNALED(status))
		*ret = (struct exec_result){ .end = EXEC_SIGNALED,
					     .status = WTERMSIG(status) };
	else
		*ret = (struct exec_result){ .end = EXEC_EXITED,
					     .status = WEXITSTATUS(status) };

out_restore:
	sigprocmask(SIG_SETMASK, &orig, NULL);
}

bool exec_describe(struct sbuf *sb, const char *cmd, int64_t timeout_ms,
		   const struct exec_result *res)
{
	const char *name;

	switch (res->end) {
	case EXEC_EXITED:
		if (res->status == 0)
			return false;
		break;
	case EXEC_STOPPED:
		return false;
	default:
		break;
	}

	if (res->end == EXEC_FAILED) {
		sbuf_adds(sb, "--exec: cannot run '");
		c_escape(sb, cmd, strlen(cmd));
		sbuf_printf(sb, "': %s", strerror(res->status));
		return true;
	}
	sbuf_adds(sb, "--exec: '");
	c_escape(sb, cmd, strlen(cmd));
	sbuf_adds(sb, "' ");
	switch (res->end) {
	case EXEC_EXITED:
		sbuf_printf(sb, "exited with status %d", res->status);
		break;
	case EXEC_SIGNALED:
		name = sigabbrev_np(res->status);
		if (name)
			sbuf_printf(sb, "killed by signal SIG%s", name);
		else
			sbuf_printf(sb, "killed by signal %d", res->status);
		break;
	default:
		sbuf_printf(sb, "timed out after %lld",
			    (long long)(timeout_ms / 1000));
		if (timeout_ms % 1000)
			sbuf_printf(sb, ".%03lld",
				    (long long)(timeout_ms % 1000));
		/* No trailing zeros of the decimals */
		while (timeout_ms % 1000 && sb->len && !sb->oom &&
		       sb->buf[sb->len - 1] == '0')
			sb->buf[--sb->len] = '\0';
		sbuf_adds(sb, " s, killed");
		break;
	}
	return true;
}
