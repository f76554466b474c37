// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: stopping. SIGINT, SIGTERM, SIGHUP and SIGQUIT and the
 * --timeout end the watch; the signals are blocked but in the waits, which
 * let them in.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "stop.h"

/* The signal that asked kevent-watch to stop; 0 until one did. */
volatile sig_atomic_t got_signal;
/* The signals that stop it: blocked but in wait_ready(), see stopping(). */
static sigset_t stop_signals;
/* The signal mask to wait with: that of the start, less stop_signals. */
static sigset_t wait_mask;
/*
 * When --timeout ends the watch, in CLOCK_MONOTONIC ms; 0: never, or not
 * yet (the states of --coldplug and the events of --replay come whole).
 */
static uint64_t deadline_ms;

uint64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Is it time to stop: has a stop signal arrived, or the --timeout passed?
 * The stop signals stay blocked, so that no system call is interrupted
 * half way; a pending one is taken here, once a millisecond at most, so
 * that a storm of events that never lets kevent-watch wait does not hold
 * it off.
 */
bool stopping(void)
{
	static const struct timespec now_only = { 0 };
	static uint64_t checked_ms;
	uint64_t now;
	int sig;

	if (got_signal)
		return true;
	now = monotonic_ms();
	if (deadline_ms && now >= deadline_ms)
		return true;
	if (now != checked_ms) {
		checked_ms = now;
		sig = sigtimedwait(&stop_signals, NULL, &now_only);
		if (sig > 0)
			got_signal = sig;
	}
	return got_signal;
}

/*
 * Wait until one of @fds is ready, a stop signal arrives, the --timeout
 * passes or @wait_ms (-1: no limit) go by; not at all when stopping.
 * Return: as ppoll(), but 0 with no revents when a signal interrupted it.
 */
int wait_ready(struct pollfd *fds, nfds_t nfds, int64_t wait_ms)
{
	struct timespec ts, *tsp = NULL;
	uint64_t now, left;
	nfds_t i;
	int r;

	if (stopping()) {
		wait_ms = 0;
	} else if (deadline_ms) {
		now = monotonic_ms();
		left = deadline_ms > now ? deadline_ms - now : 0;
		if (wait_ms < 0 || (uint64_t)wait_ms > left)
			wait_ms = left;
	}
	if (wait_ms >= 0) {
		ts.tv_sec = wait_ms / 1000;
		ts.tv_nsec = wait_ms % 1000 * 1000000;
		tsp = &ts;
	}
	r = ppoll(fds, nfds, tsp, &wait_mask);
	if (r < 0 && errno == EINTR) {
		for (i = 0; i < nfds; i++)
			fds[i].revents = 0;
		return 0;
	}
	return r;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT stop kevent-watch: block them from
 * now on, and catch them where wait_ready() lets them in. A SIGHUP ignored
 * from the start (nohup) stays ignored.
 */
void stop_signals_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = on_signal }, old;
	size_t i;

	sigemptyset(&stop_signals);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&stop_signals, sigs[i]);
	}
	sa.sa_mask = stop_signals;
	sigprocmask(SIG_BLOCK, &stop_signals, &wait_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (!sigismember(&stop_signals, sigs[i]))
			continue;
		sigdelset(&wait_mask, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * End as killed by @sig, as a program a signal cuts short should, so that
 * the shell that runs it sees that too. Return: 128 + @sig, should it not.
 */
int die_of(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	raise(sig);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 128 + sig;
}

void stop_set_deadline(uint64_t ms)
{
	deadline_ms = ms;
}

bool deadline_passed(void)
{
	return deadline_ms && monotonic_ms() >= deadline_ms;
}
