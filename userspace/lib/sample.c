// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sample source: attributes the kernel never announces, read every
 * interval and reported when their value changed.
 *
 * Each attribute is opened once and read with one pread() from offset 0
 * per interval. The patterns (file names or glob(3) patterns) are expanded
 * again at each interval, so that attributes that appear are followed, and
 * those that no longer match, or whose read fails with ENODEV (the
 * attribute was removed), are let go without an event. A read that newly
 * fails otherwise is reported only when the next interval's read fails
 * the same way: a device being removed fails its attributes' reads (a
 * network device's with EINVAL) before they are gone, which is no change
 * of the attribute.
 *
 * The epoll set holds a timerfd, which ends each interval, and an eventfd,
 * readable while the events of the last interval are not all taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "kevent-private.h"

struct sample_attr {
	char *name; /* as the pattern's expansion gave it: the key */
	char *path; /* kobject directory relative to /sys */
	char *attr;
	int fd; /* -1: not sampled (not a sysfs file, or a duplicate) */
	int err; /* errno of the last read kept; 0: a value */
	char *value; /* the value last reported (the baseline) */
	size_t len;
	bool seen; /* matched by the expansion under way */
	bool fresh; /* opened by it: its first read is its baseline */
	int failing; /* errno of a failed read not yet reported, or 0 */
};

struct kevent_sample_monitor {
	unsigned int refcount;
	int epfd;
	int timer_fd;
	int held_fd; /* eventfd: readable while events are queued */
	uint64_t delta;
	char **patterns;
	size_t n_patterns;
	struct sample_attr *attrs; /* sorted by name */
	size_t n_attrs;
	struct kevent_event **queue;
	size_t q_head, q_len, q_size;
	char *buf;
};

/* Parse a whole decimal integer: [blanks][+-]digits[blanks or newline] */
bool kevent_sample_parse_number(const char *s, size_t len, int64_t *ret)
{
	const char *p = s, *end = s + len;
	bool neg = false, digits = false;
	uint64_t n = 0, limit;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (n > (limit - (*p - '0')) / 10)
			return false;
		n = n * 10 + (*p - '0');
		digits = true;
	}
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	if (!digits || p != end)
		return false;
	*ret = neg ? (int64_t)(0 - n) : (int64_t)n;
	return true;
}

bool kevent_sample_changed(int old_err, const char *old, size_t old_len,
			   int new_err, const char *cur, size_t cur_len,
			   uint64_t delta)
{
	int64_t a, b;
	uint64_t d;

	if (old_err || new_err)
		return old_err != new_err;
	if (delta && kevent_sample_parse_number(old, old_len, &a) &&
	    kevent_sample_parse_number(cur, cur_len, &b)) {
		/* Modulo 2^64, the distance of two int64_t values is exact. */
		d = a > b ? (uint64_t)a - (uint64_t)b :
			    (uint64_t)b - (uint64_t)a;
		return d >= delta;
	}
	return old_len != cur_len || memcmp(old, cur, cur_len) != 0;
}

static void sample_attr_free(struct sample_attr *a)
{
	if (a->fd >= 0)
		close(a->fd);
	free(a->name);
	free(a->path);
	free(a->attr);
	free(a->value);
}

KEVENT_EXPORT struct kevent_sample_monitor *
kevent_sample_monitor_ref(struct kevent_sample_monitor *monitor)
{
	if (monitor)
		monitor->refcount++;
	return monitor;
}

KEVENT_EXPORT struct kevent_sample_monitor *
kevent_sample_monitor_unref(struct kevent_sample_monitor *monitor)
{
	size_t i;

	if (!monitor || --monitor->refcount > 0)
		return NULL;
	for (i = 0; i < monitor->n_attrs; i++)
		sample_attr_free(&monitor->attrs[i]);
	free(monitor->attrs);
	for (i = 0; i < monitor->n_patterns; i++)
		free(monitor->patterns[i]);
	free(monitor->patterns);
	for (i = 0; i < monitor->q_len; i++)
		kevent_event_unref(monitor->queue[(monitor->q_head + i) %
						  monitor->q_size]);
	free(monitor->queue);
	free(monitor->buf);
	if (monitor->timer_fd >= 0)
		close(monitor->timer_fd);
	if (monitor->held_fd >= 0)
		close(monitor->held_fd);
	if (monitor->epfd >= 0)
		close(monitor->epfd);
	free(monitor);
	return NULL;
}

static int epoll_add(int epfd, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

KEVENT_EXPORT int
kevent_sample_monitor_new(struct kevent_sample_monitor **ret_monitor,
			  uint64_t interval_usec)
{
	struct itimerspec its = { 0 };
	struct kevent_sample_monitor *m;
	int r;

	if (!ret_monitor || interval_usec == 0)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	*m = (struct kevent_sample_monitor){ .refcount = 1, .epfd = -1,
					     .timer_fd = -1, .held_fd = -1 };
	m->buf = malloc(KEVENT_VALUE_MAX);
	if (!m->buf) {
		r = -ENOMEM;
		goto out_unref;
	}
	m->epfd = epoll_create1(EPOLL_CLOEXEC);
	m->timer_fd = timerfd_create(CLOCK_MONOTONIC,
				     TFD_NONBLOCK | TFD_CLOEXEC);
	m->held_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->epfd < 0 || m->timer_fd < 0 || m->held_fd < 0) {
		r = -errno;
		goto out_unref;
	}
	its.it_interval.tv_sec = interval_usec / 1000000;
	its.it_interval.tv_nsec = interval_usec % 1000000 * 1000;
	its.it_value = its.it_interval;
	if (timerfd_settime(m->timer_fd, 0, &its, NULL) < 0) {
		r = -errno;
		goto out_unref;
	}
	r = epoll_add(m->epfd, m->timer_fd);
	if (r == 0)
		r = epoll_add(m->epfd, m->held_fd);
	if (r < 0)
		goto out_unref;
	*ret_monitor = m;
	return 0;

out_unref:
	kevent_sample_monitor_unref(m);
	return r;
}

KEVENT_EXPORT int
kevent_sample_monitor_set_delta(struct kevent_sample_monitor *monitor,
				uint64_t delta)
{
	if (!monitor)
		return -EINVAL;
	monitor->delta = delta;
	return 0;
}

KEVENT_EXPORT int
kevent_sample_monitor_get_fd(struct kevent_sample_monitor *monitor)
{
	if (!monitor)
		return -EINVAL;
	return monitor->epfd;
}

static bool has_wildcard(const char *pattern)
{
	return strpbrk(pattern, "*?[\\") != NULL;
}

/* One read from offset 0 into m->buf. Return: the length, or -errno. */
static ssize_t sample_read(struct kevent_sample_monitor *m, int fd)
{
	ssize_t n;

	do
		n = pread(fd, m->buf, KEVENT_VALUE_MAX, 0);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* Keep @n bytes of m->buf (or the error @err) as @a's baseline. */
static int sample_keep(struct kevent_sample_monitor *m, struct sample_attr *a,
		       ssize_t n)
{
	char *v;

	if (n < 0) {
		a->err = -n;
		a->len = 0;
		return 0;
	}
	v = realloc(a->value, n ? n : 1);
	if (!v)
		return -ENOMEM;
	memcpy(v, m->buf, n);
	a->value = v;
	a->len = n;
	a->err = 0;
	return 0;
}

/*
 * Open the file @name for @a: its path and attribute, its descriptor, its
 * first value. Return: 0, -EXDEV (not a file of sysfs below /sys),
 * -EISDIR, -EINVAL (a name that fails validation), -ENOMEM, or the
 * negative errno of realpath() or open().
 */
static int sample_open(struct kevent_sample_monitor *m, const char *name,
		       struct sample_attr *a)
{
	char *real;
	int r;

	*a = (struct sample_attr){ .fd = -1 };
	r = kevent_sysfs_file_resolve(name, &real, &a->path, &a->attr);
	if (r < 0)
		return r;
	r = kevent_sysfs_file_open(real, &a->fd);
	if (r < 0)
		goto out_free;
	r = sample_keep(m, a, sample_read(m, a->fd));
	if (r < 0)
		goto out_free;
	free(real);
	return 0;

out_free:
	free(real);
	sample_attr_free(a);
	*a = (struct sample_attr){ .fd = -1 };
	return r;
}

/*
 * Does sample_open()'s error @r refuse the file for as long as its name
 * matches: not a file of sysfs below /sys, a directory, a bad name?
 */
static bool sample_refused(int r)
{
	return r == -EXDEV || r == -EISDIR || r == -EINVAL;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sample_attr *)a)->name,
		      ((const struct sample_attr *)b)->name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct sample_attr *sample_find(struct kevent_sample_monitor *m,
				       const char *name)
{
	struct sample_attr key = { .name = (char *)name };

	return bsearch(&key, m->attrs, m->n_attrs, sizeof(key), name_cmp);
}

/* Is the file of @a, opened now, sampled already under another name? */
static bool sample_duplicate(struct kevent_sample_monitor *m,
			     const struct sample_attr *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (m->attrs[i].fd >= 0 &&
		    strcmp(m->attrs[i].attr, a->attr) == 0 &&
		    strcmp(m->attrs[i].path, a->path) == 0)
			return true;
	return false;
}

/* Drop the attributes not seen, or all those not sampled if @unsampled. */
static void sample_compact(struct kevent_sample_monitor *m, bool unsampled)
{
	size_t i, n = 0;

	for (i = 0; i < m->n_attrs; i++) {
		if (!m->attrs[i].seen || (unsampled && m->attrs[i].fd < 0)) {
			sample_attr_free(&m->attrs[i]);
			continue;
		}
		m->attrs[n++] = m->attrs[i];
	}
	m->n_attrs = n;
}

/*
 * Expand the patterns from the one of index @first on: follow the files
 * that match now and, when all are expanded (@first 0), let go of those
 * that no longer match. A new file is opened and read (its baseline); one
 * that cannot be sampled (not a sysfs file, a duplicate) is kept unopened,
 * so that it is not looked at again while it matches; one whose open
 * failed otherwise is looked at again at the next pass.
 * Return: 0, or -ENOMEM.
 */
static int sample_expand(struct kevent_sample_monitor *m, size_t first)
{
	glob_t g = { 0 };
	struct sample_attr *attrs, *a;
	size_t i, n, n_old = m->n_attrs;
	bool dropped = false;
	int r = 0;

	for (i = first; i < m->n_patterns; i++) {
		r = glob(m->patterns[i],
			 GLOB_NOSORT | (i > first ? GLOB_APPEND : 0), NULL, &g);
		if (r == GLOB_NOSPACE) {
			globfree(&g);
			return -ENOMEM;
		}
	}
	r = 0;
	for (i = 0; i < m->n_attrs; i++)
		m->attrs[i].seen = first > 0;
	if (g.gl_pathc) {
		qsort(g.gl_pathv, g.gl_pathc, sizeof(*g.gl_pathv), str_cmp);
		attrs = reallocarray(m->attrs, m->n_attrs + g.gl_pathc,
				     sizeof(*attrs));
		if (!attrs) {
			globfree(&g);
			return -ENOMEM;
		}
		m->attrs = attrs;
	}
	n = m->n_attrs;
	for (i = 0; i < g.gl_pathc; i++) {
		if (i && strcmp(g.gl_pathv[i], g.gl_pathv[i - 1]) == 0)
			continue;
		/* Only the old ones are sorted, and searched */
		m->n_attrs = n_old;
		a = sample_find(m, g.gl_pathv[i]);
		m->n_attrs = n;
		if (a) {
			a->seen = true;
			continue;
		}
		a = &m->attrs[n];
		r = sample_open(m, g.gl_pathv[i], a);
		if (r == -ENOMEM)
			break;
		/*
		 * A failure that may pass (descriptors used up, EACCES, a
		 * file gone since the glob) keeps no entry: the next pass
		 * tries again.
		 */
		if (r < 0 && !sample_refused(r)) {
			r = 0;
			continue;
		}
		r = 0;
		a->name = strdup(g.gl_pathv[i]);
		if (!a->name) {
			sample_attr_free(a);
			r = -ENOMEM;
			break;
		}
		if (a->fd >= 0 && sample_duplicate(m, a, n)) {
			close(a->fd);
			a->fd = -1;
		}
		a->seen = true;
		a->fresh = true;
		n++;
	}
	globfree(&g);
	m->n_attrs = n;
	for (i = 0; i < n_old; i++)
		if (!m->attrs[i].seen && m->attrs[i].fd >= 0)
			dropped = true;
	/* A file sampled under one name is gone: the others may take over. */
	sample_compact(m, dropped);
	qsort(m->attrs, m->n_attrs, sizeof(*m->attrs), name_cmp);
	return r;
}

KEVENT_EXPORT int
kevent_sample_monitor_add(struct kevent_sample_monitor *monitor,
			  const char *pattern)
{
	struct sample_attr a;
	char **patterns, *p;
	size_t i;
	int r;

	if (!monitor || !pattern || !*pattern)
		return -EINVAL;
	if (pattern[0] == '/' && !kevent_below_sys(pattern))
		return -EXDEV;
	for (i = 0; i < monitor->n_patterns; i++)
		if (strcmp(monitor->patterns[i], pattern) == 0)
			return -EEXIST;
	/* A file name, not a pattern: it must be there, and sysfs. */
	if (!has_wildcard(pattern)) {
		r = sample_open(monitor, pattern, &a);
		if (r < 0)
			return r;
		sample_attr_free(&a);
	}
	p = strdup(pattern);
	patterns = reallocarray(monitor->patterns, monitor->n_patterns + 1,
				sizeof(*patterns));
	if (!p || !patterns) {
		free(p);
		if (patterns)
			monitor->patterns = patterns;
		return -ENOMEM;
	}
	monitor->patterns = patterns;
	patterns[monitor->n_patterns++] = p;
	/* The new pattern only: the others were expanded already */
	r = sample_expand(monitor, monitor->n_patterns - 1);
	for (i = 0; i < monitor->n_attrs; i++)
		monitor->attrs[i].fresh = false;
	return r;
}

KEVENT_EXPORT size_t
kevent_sample_monitor_get_count(const struct kevent_sample_monitor *monitor)
{
	size_t i, n = 0;

	if (!monitor)
		return 0;
	for (i = 0; i < monitor->n_attrs; i++)
		if (monitor->attrs[i].fd >= 0)
			n++;
	return n;
}

/* Queue @ev; the held eventfd is readable while the queue is not empty. */
static int sample_queue(struct kevent_sample_monitor *m,
			struct kevent_event *ev)
{
	struct kevent_event **q;
	size_t size, i;

	if (m->q_len == m->q_size) {
		size = m->q_size ? m->q_size * 2 : 16;
		q = malloc(size * sizeof(*q));
		if (!q)
			return -ENOMEM;
		for (i = 0; i < m->q_len; i++)
			q[i] = m->queue[(m->q_head + i) % m->q_size];
		free(m->queue);
		m->queue = q;
		m->q_size = size;
		m->q_head = 0;
	}
	m->queue[(m->q_head + m->q_len++) % m->q_size] = ev;
	return 0;
}

static void held_set(struct kevent_sample_monitor *m, bool held)
{
	uint64_t v = 1;
	ssize_t n;

	if (held)
		n = write(m->held_fd, &v, sizeof(v));
	else
		n = read(m->held_fd, &v, sizeof(v));
	(void)n;
}

/* Read every attribute once; queue an event for each that changed. */
static int sample_pass(struct kevent_sample_monitor *m)
{
	struct kevent_event *ev;
	struct sample_attr *a;
	bool dropped = false;
	ssize_t n;
	size_t i;
	int r;

	r = sample_expand(m, 0);
	if (r < 0)
		return r;
	for (i = 0; i < m->n_attrs; i++) {
		a = &m->attrs[i];
		if (a->fd < 0 || a->fresh) {
			a->fresh = false;
			continue;
		}
		n = sample_read(m, a->fd);
		if (n == -ENODEV) {
			/* Removed: let go of it, quietly. */
			a->seen = false;
			dropped = true;
			continue;
		}
		/* A new error: reported if the next read fails alike */
		if (n < 0 && (int)-n != a->err && (int)-n != a->failing) {
			a->failing = -n;
			continue;
		}
		a->failing = 0;
		if (!kevent_sample_changed(a->err, a->value, a->len,
					   n < 0 ? (int)-n : 0, m->buf,
					   n < 0 ? 0 : n, m->delta))
			continue;
		r = sample_keep(m, a, n);
		if (r == 0)
			r = kevent_event_new_stock(KEVENT_EVENT_SOURCE_SAMPLE,
						   0, a->path, a->attr, NULL,
						   &ev);
		if (r == 0) {
			r = sample_queue(m, ev);
			if (r < 0)
				kevent_event_unref(ev);
		}
		if (r < 0)
			return r;
	}
	if (dropped) {
		sample_compact(m, true);
		qsort(m->attrs, m->n_attrs, sizeof(*m->attrs), name_cmp);
	}
	return 0;
}

KEVENT_EXPORT int
kevent_sample_monitor_receive(struct kevent_sample_monitor *monitor,
			      struct kevent_event **ret_event)
{
	uint64_t expired;
	ssize_t n;
	int r;

	if (!monitor || !ret_event)
		return -EINVAL;
	if (!monitor->q_len) {
		n = read(monitor->timer_fd, &expired, sizeof(expired));
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n < 0)
			return -EAGAIN;
		r = sample_pass(monitor);
		if (r < 0)
			return r;
		if (!monitor->q_len)
			return -EAGAIN;
		held_set(monitor, true);
	}
	*ret_event = monitor->queue[monitor->q_head];
	monitor->q_head = (monitor->q_head + 1) % monitor->q_size;
	if (--monitor->q_len == 0)
		held_set(monitor, false);
	return 0;
}

KEVENT_EXPORT int
kevent_sample_monitor_foreach(struct kevent_sample_monitor *monitor,
			      kevent_event_cb cb, void *userdata)
{
	struct kevent_event *ev;
	size_t i;
	int r;

	if (!monitor || !cb)
		return -EINVAL;
	for (i = 0; i < monitor->n_attrs; i++) {
		if (monitor->attrs[i].fd < 0)
			continue;
		r = kevent_event_new_stock(KEVENT_EVENT_SOURCE_SAMPLE, 0,
					   monitor->attrs[i].path,
					   monitor->attrs[i].attr, NULL, &ev);
		if (r < 0)
			return r;
		r = cb(ev, userdata);
		kevent_event_unref(ev);
		if (r)
			return r;
	}
	return 0;
}
