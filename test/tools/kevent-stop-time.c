// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-stop-time - how long a program takes to exit once it is signalled
 *
 * Usage: kevent-stop-time SIGNAL AT_MS [PAUSE_MS RESUME_MS] -- COMMAND...
 *
 * Runs COMMAND (its standard streams inherited), sends it SIGNAL (a number)
 * AT_MS milliseconds after its start and waits for it to exit. With
 * PAUSE_MS and RESUME_MS, COMMAND is stopped (SIGSTOP) at PAUSE_MS and
 * continued (SIGCONT) at RESUME_MS before that, so that whatever it reads
 * piles up meanwhile. Prints one line on stdout:
 *
 *   stop_ns=N status=S
 *
 * N is the CLOCK_MONOTONIC time from just before kill() to the return of
 * waitpid(); S is the exit status, or 128 + the signal that ended it. The
 * same measurement of a program that installs no handler (sleep) is the
 * floor: the kernel's and this tool's part of N. Exit status 1 when
 * COMMAND cannot be run or ends before AT_MS, 2 on a usage error.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "kevent-stop-time"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* Sleep until @ms milliseconds after @start (ns) */
static void sleep_until(uint64_t start, long ms)
{
	uint64_t when = start + (uint64_t)ms * 1000000u;
	struct timespec ts = {
		.tv_sec = when / 1000000000u,
		.tv_nsec = when % 1000000000u,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* A non-negative number of milliseconds, or -1 */
static long parse_ms(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	return v;
}

/* Whether @pid has ended already (reaped into @status) */
static int ended(pid_t pid, int *status)
{
	return waitpid(pid, status, WNOHANG) == pid;
}

static int usage(void)
{
	fprintf(stderr, "usage: " PROG
		" SIGNAL AT_MS [PAUSE_MS RESUME_MS] -- COMMAND...\n");
	return 2;
}

int main(int argc, char **argv)
{
	long sig, at, pause_at = -1, resume_at = -1;
	uint64_t start, t0, t1;
	int cmd, status;
	pid_t pid;

	for (cmd = 1; cmd < argc && strcmp(argv[cmd], "--"); cmd++)
		;
	if (cmd != 3 && cmd != 5)
		return usage();
	if (cmd + 1 >= argc)
		return usage();
	sig = parse_ms(argv[1]);
	at = parse_ms(argv[2]);
	if (cmd == 5) {
		pause_at = parse_ms(argv[3]);
		resume_at = parse_ms(argv[4]);
		if (pause_at < 0 || resume_at < pause_at)
			return usage();
	}
	if (sig <= 0 || sig >= NSIG || at < resume_at || at < 0)
		return usage();

	start = now_ns();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		execvp(argv[cmd + 1], argv + cmd + 1);
		fprintf(stderr, PROG ": %s: %s\n", argv[cmd + 1],
			strerror(errno));
		_exit(127);
	}

	if (pause_at >= 0) {
		sleep_until(start, pause_at);
		kill(pid, SIGSTOP);
		sleep_until(start, resume_at);
		kill(pid, SIGCONT);
	}
	sleep_until(start, at);
	if (ended(pid, &status)) {
		fprintf(stderr, PROG ": %s ended before the signal (status %d)\n",
			argv[cmd + 1], WIFEXITED(status) ? WEXITSTATUS(status) :
			128 + WTERMSIG(status));
		return 1;
	}

	t0 = now_ns();
	kill(pid, (int)sig);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	t1 = now_ns();

	printf("stop_ns=%llu status=%d\n", (unsigned long long)(t1 - t0),
	       WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status));
	return 0;
}
