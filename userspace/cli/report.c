// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: each record. Its value is read through the cache of open
 * attributes, the filters applied, and the record sent to the sinks: the
 * lines of the output, the journal, the --exec command.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kevent/kevent.h>

#include "exec.h"
#include "report.h"
#include "stdout.h"
#include "stop.h"
#include "watch.h"

/* Buffer the line built so far. Return: 0, STOP_QUIET, or -1 (reported). */
int emit(struct watch *w)
{
	const char *s = sbuf_str(&w->line);

	if (!s) {
		warn_user("out of memory\n");
		return -1;
	}
	out_add(s, w->line.len);
	return output_status();
}

/* Does @glob hold a wildcard, or is it a name that matches itself alone? */
bool has_wildcard(const char *glob)
{
	return strpbrk(glob, "*?[\\") != NULL;
}

bool glob_match(const char *const *globs, size_t n, const char *s)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++) {
		if (!has_wildcard(globs[i])) {
			if (strcmp(globs[i], s) == 0)
				return true;
		} else if (fnmatch(globs[i], s, 0) == 0) {
			return true;
		}
	}
	return false;
}

static bool subsystem_match(const struct watch *w, const char *subsystem)
{
	size_t i;

	if (w->opt.n_subsystems == 0)
		return true;
	if (!subsystem)
		return false;
	for (i = 0; i < w->opt.n_subsystems; i++)
		if (strcmp(w->opt.subsystems[i], subsystem) == 0)
			return true;
	return false;
}

/*
 * Run the --exec command for @r, and say on stderr how it failed, if it
 * did. Return: 0, STOP_QUIET (SIGINT or SIGTERM arrived), or -1.
 */
static int run_exec(struct watch *w, const struct record *r)
{
	struct exec_result res;
	char **env;

	env = exec_env_new(r, environ);
	if (!env) {
		warn_user("out of memory\n");
		return -1;
	}
	exec_run(w->opt.exec, env, w->opt.exec_timeout_ms, &got_signal, &res);
	exec_env_free(env);
	sbuf_reset(&w->line);
	if (exec_describe(&w->line, w->opt.exec, w->opt.exec_timeout_ms,
			  &res)) {
		warn_user("%s\n",
		     sbuf_str(&w->line) ? sbuf_str(&w->line) : "--exec");
		fflush(stderr);
	}
	return got_signal ? STOP_QUIET : 0;
}

/*
 * Send the entry built in w->entry (@built: how building it went) to the
 * journal. Return: 0, or -1 (reported).
 */
int journal_send(struct watch *w, int built)
{
	int r = built < 0 ? built : journal_entry_send(&w->entry);

	if (r < 0) {
		warn_user("cannot write to the journal: %s\n", strerror(-r));
		return -1;
	}
	return 0;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t boottime_ns(void)
{
	return clock_ns(CLOCK_BOOTTIME);
}

/* The time of the wall clock (CLOCK_REALTIME) at boot time @ns */
static uint64_t realtime_of(uint64_t ns)
{
	uint64_t boot = boottime_ns(), real = clock_ns(CLOCK_REALTIME);

	return real - (boot > ns ? boot - ns : 0);
}

/*
 * Print one event (@type RECORD_EVENT) or the state of one source, after
 * reading its value. Return: 0 (printed or filtered out), STOP_QUIET, -1.
 */
int report(struct watch *w, const struct kevent_event *ev,
	   enum record_type type)
{
	enum kevent_class cls = kevent_event_get_class(ev);
	enum kevent_event_source source = kevent_event_get_source(ev);
	const char *path = kevent_event_get_path(ev);
	const char *attr = kevent_event_get_attr(ev);
	const char *ev_subsystem = kevent_event_get_subsystem(ev);
	char *value = NULL, *own_subsystem = NULL;
	struct attr_cache_entry *entry;
	const char *subsystem;
	struct record r = {
		.type = type,
		.source = kevent_event_source_to_string(source),
		.no_seq = source == KEVENT_EVENT_SOURCE_POLL ||
			  source == KEVENT_EVENT_SOURCE_RTNETLINK ||
			  source == KEVENT_EVENT_SOURCE_SAMPLE,
		.cls = kevent_class_to_string(cls),
		.path = path,
		.attr = attr,
	};
	size_t len = 0;
	int open_err, ret;

	/* Stock events of an attribute without a class pass no --class. */
	if (w->opt.classes &&
	    (cls > KEVENT_CLASS_MAX || !(w->opt.classes & (1u << cls))))
		return 0;
	if (!glob_match(w->opt.attr_globs, w->opt.n_attr_globs, attr) ||
	    !glob_match(w->opt.path_globs, w->opt.n_path_globs, path))
		return 0;

	/*
	 * The attribute comes from the cache of open ones: it is opened and
	 * its device's subsystem looked up once, and each event reads the
	 * value afresh. The subsystem is known before the value is read, so
	 * --subsystem spares the reads of other devices. An entry found
	 * stale was opened again by the second lookup, whose read cannot
	 * find it stale: the loop runs twice at most.
	 */
	do {
		open_err = attr_cache_get(w->cache, path, attr, &entry);
		free(own_subsystem);
		own_subsystem = NULL;
		if (ev_subsystem)
			subsystem = ev_subsystem;
		else if (entry)
			subsystem = attr_cache_subsystem(entry);
		else if (kevent_device_get_subsystem(path, &own_subsystem) == 0)
			subsystem = own_subsystem;
		else
			subsystem = NULL;
		if (!subsystem_match(w, subsystem)) {
			free(own_subsystem);
			return 0;
		}
		ret = open_err;
		if (!ret)
			ret = attr_cache_read(entry, &value, &len);
	} while (ret == -ESTALE);
	if (ret < 0) {
		r.error = -ret;
	} else {
		r.value = value;
		r.value_len = value_trim(value, len);
	}
	r.subsystem = subsystem;
	r.unit = kevent_attribute_unit(attr);
	if (type == RECORD_EVENT) {
		r.seq = kevent_event_get_seq(ev);
		r.time_ns = kevent_event_get_timestamp(ev);
		r.coalesced = kevent_event_get_coalesced(ev);
	} else {
		r.time_ns = boottime_ns();
	}
	if (w->opt.realtime) {
		r.time_ns = realtime_of(r.time_ns);
		r.realtime = true;
	}

	ret = 0;
	if (w->print_lines) {
		sbuf_reset(&w->line);
		if (w->opt.json)
			record_json(&w->line, &r);
		else if (w->opt.format)
			format_expand(&w->line, w->opt.format, &r);
		else
			record_text(&w->line, &r);
		ret = emit(w);
	}
	if (ret == 0 && w->opt.journal)
		ret = journal_send(w, journal_entry_record(&w->entry, &r));
	if (ret == 0 && w->opt.exec) {
		/* The command's output comes after the line it was run for. */
		ret = flush_output();
		if (ret == 0)
			ret = run_exec(w, &r);
	}
	free(value);
	free(own_subsystem);

	if (ret == 0 && type == RECORD_EVENT)
		w->printed++;
	return ret;
}

int state_cb(const struct kevent_event *ev, void *userdata)
{
	int r;

	if (stopping())
		return STOP_QUIET;
	r = report(userdata, ev, RECORD_STATE);

	/* Any non-zero value stops the dump and comes back as its result. */
	return r < 0 ? STOP_FAILED : r;
}
