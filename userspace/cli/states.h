/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: the states of the sources (--list, --coldplug, and after an
 * overrun) and the events the kernel still holds (--replay).
 */
#ifndef KEVENT_WATCH_STATES_H
#define KEVENT_WATCH_STATES_H

#include <kevent/kevent.h>

struct watch;
struct monitors;

/* --list: the states of the sources asked for. Return: the exit status. */
int list_states(struct watch *w);

/*
 * --coldplug: the states of the monitors' sources.
 * Return: 0, STOP_QUIET, or -1.
 */
int print_coldplug(struct watch *w, const struct monitors *mons);

/* --replay: the events the kernel holds. Return: 0, STOP_QUIET, or -1. */
int print_replay(struct watch *w, struct kevent_monitor *m);

/*
 * Events of @backend were lost (@lost of them, or -1: unknown): say so,
 * then re-read the states they may have changed. Return: 0, STOP_QUIET, -1.
 */
int overrun(struct watch *w, long long lost, enum kevent_backend backend);

#endif /* KEVENT_WATCH_STATES_H */
