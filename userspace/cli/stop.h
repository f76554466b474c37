/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: stopping. SIGINT, SIGTERM, SIGHUP and SIGQUIT and the
 * --timeout end the watch; the signals are blocked but in the waits, which
 * let them in.
 */
#ifndef KEVENT_WATCH_STOP_H
#define KEVENT_WATCH_STOP_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* The signal that asked kevent-watch to stop; 0 until one did. */
extern volatile sig_atomic_t got_signal;

/* CLOCK_MONOTONIC, in milliseconds */
uint64_t monotonic_ms(void);

/* Block the stop signals, and catch them where wait_ready() lets them in. */
void stop_signals_init(void);

/* The --timeout ends the watch at @ms of monotonic_ms(); 0: never. */
void stop_set_deadline(uint64_t ms);

/* Has the --timeout passed? */
bool deadline_passed(void);

/* Should the watch end now: a stop signal came, or the --timeout passed? */
bool stopping(void);

/* poll() @fds, letting the stop signals in; see stop.c. */
int wait_ready(struct pollfd *fds, nfds_t nfds, int64_t wait_ms);

/* End as killed by @sig. Return: 128 + @sig, should it not. */
int die_of(int sig);

#endif /* KEVENT_WATCH_STOP_H */
