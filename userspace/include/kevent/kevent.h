/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkevent: receive attribute-based kernel events.
 *
 * The kernel's kevent layer sends a hint "attribute ATTR of the kobject at
 * PATH changed" over the generic netlink family "kevent". An event never
 * carries a value: read it with kevent_attr_read() when handling the event.
 *
 * Conventions: functions that can fail return 0 (or a documented value of 0
 * or more) on success and a negative errno on failure; errno is not how they
 * report it, and its value after a call is unspecified. They never print and
 * never exit. Output parameters are named ret_*. Every _unref() accepts NULL.
 * No object is safe for concurrent use from several threads.
 */
#ifndef KEVENT_KEVENT_H
#define KEVENT_KEVENT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The kernel's uAPI header, kernel/uapi/kevent.h, installed beside this one
 * (userspace/include/kevent/uapi links to it in the source tree)
 */
#include <kevent/uapi/kevent.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kevent_monitor;
struct kevent_event;

/**
 * kevent_class_to_string() - name of an event class
 * @cls: the class
 *
 * Return: the multicast group name of @cls ("general", "power", ...), or
 * NULL if @cls is not a known class.
 */
const char *kevent_class_to_string(enum kevent_class cls);

/**
 * kevent_class_from_string() - event class of a name
 * @name: a class name as kevent_class_to_string() returns it
 *
 * Return: the class (>= 0), or -EINVAL if @name is NULL or no class has it.
 */
int kevent_class_from_string(const char *name);

/**
 * kevent_attribute_unit() - unit of a registered event attribute
 * @name: attribute name, such as "temperature"
 *
 * Return: the unit from the attribute registry ("mdegC", "bytes", ...), or
 * NULL if the attribute has no unit or is not in the registry.
 */
const char *kevent_attribute_unit(const char *name);

/**
 * kevent_attribute_id() - id of a registered event attribute
 * @name: attribute name, such as "temperature"
 *
 * The id is the attribute's position in attributes.txt, as events carry it
 * (kevent_event_get_attr_id()); it never changes. The names of a template
 * of the registry ("temp*_alarm": temp1_alarm, temp2_alarm, ...) share its
 * id; the template's own text is no name.
 *
 * Return: the id (0 or more), or -ENOENT if @name is NULL or not registered.
 */
int kevent_attribute_id(const char *name);

/**
 * kevent_monitor_new() - connect to the kevent layer
 * @ret_monitor: the new monitor, joined to no class yet
 *
 * Resolves the "kevent" generic netlink family and its groups, opens a
 * non-blocking socket with a large receive buffer, and subscribes to the
 * generic netlink controller's notifications so that the removal of the
 * family can be reported.
 *
 * Return: 0 on success; -ENOENT if the kevent family is not registered (the
 * module is not loaded, or this is not the initial network namespace);
 * -EPROTONOSUPPORT if the family's version is not KEVENT_FAMILY_VERSION, the
 * version of the ABI the library speaks (it changes only with an
 * incompatible ABI; the requests below check it too); -EPROTO if the
 * kernel's answer cannot be parsed; -ENOMEM; or the negative errno of a
 * failed socket call.
 */
int kevent_monitor_new(struct kevent_monitor **ret_monitor);

/**
 * kevent_monitor_ref() - take a reference to a monitor
 * @monitor: the monitor, or NULL
 *
 * Return: @monitor.
 */
struct kevent_monitor *kevent_monitor_ref(struct kevent_monitor *monitor);

/**
 * kevent_monitor_unref() - drop a reference to a monitor
 * @monitor: the monitor, or NULL
 *
 * When the last reference is dropped, closes the socket and its descriptor
 * and frees the monitor.
 *
 * Return: NULL.
 */
struct kevent_monitor *kevent_monitor_unref(struct kevent_monitor *monitor);

/**
 * kevent_monitor_join() - receive the events of one class
 * @monitor: the monitor
 * @cls: the class to join; the kernel wakes the monitor for joined classes
 *	only
 *
 * Joining a class twice is harmless.
 *
 * Return: 0 on success; -EINVAL if @monitor is NULL or @cls is not a class;
 * -ENOENT if the kernel's family has no group for @cls; or the negative
 * errno of setsockopt(NETLINK_ADD_MEMBERSHIP).
 */
int kevent_monitor_join(struct kevent_monitor *monitor, enum kevent_class cls);

/**
 * kevent_monitor_set_receive_buffer_size() - resize the socket buffer
 * @monitor: the monitor
 * @size: bytes; SO_RCVBUFFORCE is tried first, then SO_RCVBUF, which the
 *	kernel caps at net.core.rmem_max
 *
 * kevent_monitor_new() already asks for a large buffer.
 *
 * Return: 0 on success; -EINVAL for a NULL @monitor or a @size above
 * INT_MAX; or the negative errno of setsockopt(SO_RCVBUF).
 */
int kevent_monitor_set_receive_buffer_size(struct kevent_monitor *monitor,
					   size_t size);

/**
 * kevent_monitor_filter_add_attr() - receive only events of these attributes
 * @monitor: the monitor
 * @name: a registered attribute name (attributes.txt), such as "temperature"
 *
 * The first call attaches a socket filter that the kernel runs before it
 * queues an event, so the monitor is not woken for events of other
 * attributes of the classes it joined; later calls let more attributes
 * through. Events queued before the call are not filtered.
 *
 * The events the filter drops leave gaps in the class sequence numbers that
 * are no loss, so on a filtered monitor kevent_event_get_lost() is 0; an
 * overflow of the socket is still reported by kevent_monitor_receive()
 * (-ENOBUFS).
 *
 * Return: 0 on success (also for a name already let through); -EINVAL if an
 * argument is NULL; -ENOENT if @name is not a registered attribute; -E2BIG
 * if 64 attributes are let through already; or the negative errno of
 * setsockopt(SO_ATTACH_FILTER).
 */
int kevent_monitor_filter_add_attr(struct kevent_monitor *monitor,
				   const char *name);

/**
 * kevent_monitor_get_fd() - file descriptor to wait on
 * @monitor: the monitor
 *
 * The descriptor is readable whenever kevent_monitor_receive() has
 * something to report: events still in the socket, and also those the
 * library has taken from the socket in one batch and not returned yet. So
 * a caller may take one event per wakeup of poll() and wait again, or take
 * events until -EAGAIN; either way no event waits unseen. It is an epoll
 * descriptor, not the socket, and belongs to the monitor: only wait on it
 * (poll(), select(), or an epoll of the caller's); do not read from it or
 * close it.
 *
 * Return: the descriptor, or -EINVAL if @monitor is NULL.
 */
int kevent_monitor_get_fd(struct kevent_monitor *monitor);

/**
 * kevent_monitor_receive() - take the next event
 * @monitor: the monitor
 * @ret_event: the event, a new reference owned by the caller; set only when
 *	0 is returned
 *
 * Never blocks. Messages not sent by the kernel (sender port id not 0) and
 * messages that fail validation (a missing or oversized attribute, a string
 * that is not NUL-terminated, a path that is not absolute or has an empty,
 * "." or ".." component, an attribute name with a '/') are dropped and
 * counted, see kevent_monitor_get_dropped(). Messages of commands other
 * than KEVENT_CMD_EVENT, which a newer kernel may send, are ignored.
 *
 * Return: 0 and an event in @ret_event;
 * -EAGAIN if nothing is pending (wait for the descriptor, then call again);
 * -ENOBUFS if the socket buffer overflowed and events were lost: the monitor
 * stays usable, and the caller should re-read the state of the sources it
 * cares about (kevent_sources_foreach()); the loss is not reported a second
 * time by kevent_event_get_lost(), whose baselines start afresh once the
 * messages queued before the overflow have been taken;
 * -ENODEV if the kevent family was unregistered (the module was unloaded):
 * no more events will come on this monitor;
 * -EMSGSIZE if a message did not fit the receive buffer (it is dropped, the
 * monitor stays usable);
 * -EINVAL if an argument is NULL; -ENOMEM; or the negative errno of recvmmsg().
 */
int kevent_monitor_receive(struct kevent_monitor *monitor,
			   struct kevent_event **ret_event);

/**
 * kevent_monitor_get_dropped() - number of refused messages
 * @monitor: the monitor
 *
 * Return: how many messages kevent_monitor_receive() dropped because they
 * were not sent by the kernel or failed validation; 0 for a NULL @monitor.
 */
uint64_t kevent_monitor_get_dropped(const struct kevent_monitor *monitor);

/**
 * kevent_monitor_get_forged() - number of messages not sent by the kernel
 * @monitor: the monitor
 *
 * Return: how many of the messages counted by kevent_monitor_get_dropped()
 * were dropped because their sender port id was not 0, that is, because a
 * process (one with CAP_NET_ADMIN) sent them to the group rather than the
 * kernel; 0 for a NULL @monitor. The others failed validation.
 */
uint64_t kevent_monitor_get_forged(const struct kevent_monitor *monitor);

/**
 * kevent_monitor_mark_seen() - account an event received elsewhere
 * @monitor: the monitor
 * @event: an event of the kevent layer that the caller got by other means,
 *	such as kevent_replay_foreach()
 *
 * Loss detection (kevent_event_get_lost()) keeps, per class, the highest
 * class sequence number seen. Marking the replayed events as seen makes the
 * first live event after them be checked against the last one replayed.
 * An event older than one seen already changes nothing; events of the stock
 * sources and events without a class sequence number are ignored.
 *
 * Return: 0, or -EINVAL if an argument is NULL.
 */
int kevent_monitor_mark_seen(struct kevent_monitor *monitor,
			     const struct kevent_event *event);

/**
 * kevent_event_ref() - take a reference to an event
 * @event: the event, or NULL
 *
 * Return: @event.
 */
struct kevent_event *kevent_event_ref(struct kevent_event *event);

/**
 * kevent_event_unref() - drop a reference to an event
 * @event: the event, or NULL
 *
 * Return: NULL.
 */
struct kevent_event *kevent_event_unref(struct kevent_event *event);

/*
 * Accessors of an event. @event must not be NULL. Strings live as long as
 * the event. Records from kevent_sources_foreach() have sequence number,
 * class sequence number, timestamp and coalesced count 0.
 */

/* Sequence number: one counter for all classes, increasing per boot. */
uint64_t kevent_event_get_seq(const struct kevent_event *event);
/* CLOCK_BOOTTIME of the notification, in nanoseconds. */
uint64_t kevent_event_get_timestamp(const struct kevent_event *event);
enum kevent_class kevent_event_get_class(const struct kevent_event *event);
/* Kobject path relative to /sys, such as "/devices/platform/foo.0". */
const char *kevent_event_get_path(const struct kevent_event *event);
/* Attribute name, such as "temperature". */
const char *kevent_event_get_attr(const struct kevent_event *event);
/* Index of the attribute in the registry; UINT32_MAX if not sent. */
uint32_t kevent_event_get_attr_id(const struct kevent_event *event);
/* Notifications folded into this event besides the one reported. */
uint32_t kevent_event_get_coalesced(const struct kevent_event *event);
/*
 * Sequence number of the event in its class: the kernel numbers every event
 * of a class from 1 after kevent.ko loads, counting also those it failed to
 * send. 0 if the kernel sent none (no gap information).
 */
uint64_t kevent_event_get_class_seq(const struct kevent_event *event);
/*
 * For an event from kevent_monitor_receive(): how many events of its class
 * were lost between the previous one the monitor saw (received, or marked
 * with kevent_monitor_mark_seen()) and this one, found from the gap in the
 * class sequence numbers. 0 when none were lost, for the first event of a
 * class, for an event older than one seen already, for an event without a
 * class sequence number, and for records of the dumps and stock sources.
 * The caller should re-read the state of the sources it cares about, as
 * after -ENOBUFS.
 */
uint64_t kevent_event_get_lost(const struct kevent_event *event);

/*
 * Events of the stock sources, for kernels where the kevent layer is not
 * loaded: uevents (struct kevent_uevent_monitor) and poll()able sysfs
 * attribute files (struct kevent_poll_monitor). Their events have the
 * class of the device's subsystem, as the kernel gives it, or else of the
 * attribute name in the registry, or KEVENT_CLASS_UNKNOWN;
 * the timestamp of their reception; coalesced count 0; attribute id
 * UINT32_MAX. A uevent has the uevent's SEQNUM as sequence number and its
 * subsystem; a poll event has sequence number 0.
 */
#define KEVENT_CLASS_UNKNOWN ((enum kevent_class)-1)

enum kevent_event_source {
	KEVENT_EVENT_SOURCE_KEVENT,	/* the kevent layer */
	KEVENT_EVENT_SOURCE_UEVENT,	/* a change uevent with NAME=<attr> */
	KEVENT_EVENT_SOURCE_POLL,	/* sysfs_notify() woke a poll() */
	KEVENT_EVENT_SOURCE_RTNETLINK,	/* an rtnetlink link message */
	KEVENT_EVENT_SOURCE_SAMPLE,	/* a value read every interval changed */
};

/*
 * "kevent", "uevent", "poll", "rtnetlink" or "sample"; NULL for an unknown
 * value.
 */
const char *kevent_event_source_to_string(enum kevent_event_source source);
enum kevent_event_source
kevent_event_get_source(const struct kevent_event *event);
/* Subsystem carried by the event (uevents), or NULL. */
const char *kevent_event_get_subsystem(const struct kevent_event *event);

/**
 * typedef kevent_event_cb - called for each record of a dump
 * @event: the record, valid during the call only (take a reference with
 *	kevent_event_ref() to keep it)
 * @userdata: as passed to the dump function
 *
 * The dump functions, kevent_sources_foreach(), kevent_replay_foreach(),
 * kevent_stock_foreach() and kevent_sample_monitor_foreach(), call it once
 * per record until it returns a value other than 0; they then call it no
 * more and return that value as is.
 *
 * Return: 0 to go on. A positive value to stop: the dump function returns
 * it, and since the library's own errors are always negative, the caller
 * tells a stop from a failure by the sign. A negative value also stops the
 * dump and is returned as is, but then cannot be told from an error of the
 * library: a callback should stop with a positive value, and keep an error
 * of its own in @userdata.
 */
typedef int (*kevent_event_cb)(const struct kevent_event *event,
			       void *userdata);

/**
 * kevent_sources_foreach() - visit every annotated event source
 * @cb: called once per source, with a record whose class, path, attribute
 *	name and attribute id are set
 * @userdata: passed to @cb
 *
 * Asks the kernel for its list of sources (KEVENT_CMD_GET_SOURCES) on a
 * socket of its own, so it may be called while a monitor is open. Records
 * that fail validation are skipped.
 *
 * The list is visited once the whole of it has arrived. When sources were
 * added or removed while the kernel sent it (it marks the dump interrupted,
 * NLM_F_DUMP_INTR), the library asks for it again, up to 4 times in all,
 * before @cb sees any record, so that the list is as the kernel had it at
 * one moment. If the sources keep changing through every attempt, the last
 * list is visited: it has every source that was there all along, each once,
 * and a source added or removed meanwhile may be in it or not.
 *
 * Return: 0 when all sources were visited; the value @cb returned to stop,
 * as is (positive if @cb stops with a positive value, see kevent_event_cb);
 * -ENOENT if the kevent family is not registered; -EINVAL if @cb is NULL;
 * -EPROTO for a reply that cannot be parsed; -ENOMEM; or the negative errno
 * the kernel or a socket call reported.
 */
int kevent_sources_foreach(kevent_event_cb cb, void *userdata);

/**
 * kevent_replay_foreach() - visit the recent events the kernel still holds
 * @after: visit only the events with a sequence number greater than this;
 *	0 for every event held
 * @cb: called once per event, oldest first, with a record like a received
 *	event (sequence number, timestamp, class, path, attribute name and id,
 *	coalesced count, class sequence number); mark them with
 *	kevent_monitor_mark_seen() for the loss detection of a monitor
 * @userdata: passed to @cb
 *
 * Asks the kernel for its replay ring (KEVENT_CMD_GET_REPLAY) on a socket of
 * its own, so it may be called while a monitor is open: join the classes
 * first, then replay, then skip received events whose sequence number is
 * not above the last one replayed, and no event is missed or seen twice.
 * The kernel holds its last N events (module parameter "replay" of
 * kevent.ko); an empty ring, or one of size 0, visits nothing. Records that
 * fail validation are skipped.
 *
 * Return: 0 when all events were visited; the value @cb returned to stop,
 * as is (positive if @cb stops with a positive value, see kevent_event_cb);
 * -EINTR if events were dropped from the ring while the dump ran
 * (the kernel recorded many events meanwhile): those visited are valid and
 * in order, later ones are missing, and the caller should treat it as an
 * overrun; -EOPNOTSUPP if the kernel's kevent layer has no replay;
 * -ENOENT if the kevent family is not registered; -EINVAL if @cb is NULL;
 * -EPROTO for a reply that cannot be parsed; -ENOMEM; or the negative errno
 * the kernel or a socket call reported.
 */
int kevent_replay_foreach(uint64_t after, kevent_event_cb cb, void *userdata);

/**
 * enum kevent_stat - counters of the kevent layer, for kevent_stats_read()
 * @KEVENT_STAT_SENT: events sent
 * @KEVENT_STAT_COALESCED: notifications folded into an event already pending
 * @KEVENT_STAT_FAILED: events that could not be sent
 * @KEVENT_STAT_SOURCES: annotated sources now
 * @KEVENT_STAT_UNRECORDED: events left out of the replay ring
 *
 * New counters are appended; a value never changes its meaning.
 */
enum kevent_stat {
	KEVENT_STAT_SENT,
	KEVENT_STAT_COALESCED,
	KEVENT_STAT_FAILED,
	KEVENT_STAT_SOURCES,
	KEVENT_STAT_UNRECORDED,
};

/**
 * kevent_stats_read() - read the counters of the kevent layer, at once
 * @ret_values: an array of @n counters, indexed by enum kevent_stat, filled
 *	on success; counters the kernel did not send, and elements past those
 *	the library knows, are 0
 * @n: the number of elements of @ret_values, such as KEVENT_STAT_UNRECORDED
 *	+ 1 for every counter of this header
 *
 * One request to the kernel: the counters are read together. A program
 * built against a newer header passes a larger @n, and learns from the
 * return value how many of them this library fills in.
 *
 * Return: on success, the number of counters the library knows (5 for
 * KEVENT_STAT_SENT to KEVENT_STAT_UNRECORDED), which may be more or less
 * than @n; -EINVAL if @ret_values is NULL and @n is not 0; -ENOENT if the
 * kevent family is not registered; -EPROTONOSUPPORT; -EPROTO for a reply
 * that cannot be parsed; or the negative errno the kernel or a socket call
 * reported.
 */
int kevent_stats_read(uint64_t *ret_values, size_t n);

/**
 * struct kevent_stats - counters of the kevent layer, for kevent_stats_get()
 * @sent: events sent
 * @coalesced: notifications folded into an event already pending
 * @failed: events that could not be sent
 * @sources: annotated sources now
 *
 * This structure does not grow: it is part of the ABI. Newer counters,
 * such as KEVENT_STAT_UNRECORDED, come through kevent_stats_read().
 */
struct kevent_stats {
	uint64_t sent;
	uint64_t coalesced;
	uint64_t failed;
	uint32_t sources;
};

/**
 * kevent_stats_get() - read the counters of the kevent layer
 * @ret_stats: filled on success; counters the kernel did not send are 0
 *
 * Return: 0 on success; -ENOENT if the kevent family is not registered;
 * -EINVAL if @ret_stats is NULL; -EPROTO for a reply that cannot be parsed;
 * or the negative errno the kernel or a socket call reported.
 */
int kevent_stats_get(struct kevent_stats *ret_stats);

/**
 * kevent_attr_read() - read the current value of a sysfs attribute
 * @path: kobject path relative to /sys, as an event gives it
 * @attr: attribute name
 * @ret_value: the bytes read, NUL-terminated (the value may also contain
 *	NUL bytes); to be freed with free()
 * @ret_len: number of bytes read, not counting the terminating NUL; may be
 *	NULL
 *
 * Opens, reads and closes /sys@path/@attr on every call; nothing is cached,
 * and the library keeps no descriptor: /sys is opened for the call and must
 * be sysfs. The file is reached without following symbolic links and
 * without crossing a mount point, so it is a file of sysfs, never one of
 * another file system mounted below /sys (cgroup, debugfs, a tmpfs): with
 * one openat2() (RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS, RESOLVE_NO_XDEV)
 * or, where openat2() is not available, one directory at a time. The open
 * does not block (O_NONBLOCK), so a FIFO cannot stall it.
 * The value is returned as read, trailing newline included. A read that
 * returns less than it asked for ends the value, as sysfs gives a value in
 * one read().
 *
 * Return: 0 on success;
 * -EINVAL if an argument is NULL or @path or @attr fails validation;
 * -ENODEV if the kobject directory does not exist (the device went away);
 * -ENOENT if the directory exists but the attribute does not;
 * -ELOOP if a component is a symbolic link;
 * -EXDEV if a component is on another file system than sysfs, or /sys is
 * not sysfs;
 * -EISDIR if @attr is a directory; -EINVAL if it is not a regular file;
 * -EFBIG if the value exceeds 64 KiB;
 * -ENOMEM; or the negative errno of open() or read(), such as -EACCES,
 * -EPERM, -EIO, -ENODATA or -EOPNOTSUPP, as the attribute's driver reports
 * it.
 */
int kevent_attr_read(const char *path, const char *attr, char **ret_value,
		     size_t *ret_len);

/**
 * kevent_attr_open() - open a sysfs attribute to read its value repeatedly
 * @path: kobject path relative to /sys, as an event gives it
 * @attr: attribute name
 *
 * Opens /sys@path/@attr as kevent_attr_read() does, for a caller that reads
 * the same attribute for many events with kevent_attr_read_fd(): one read
 * per event instead of an open, a read and a close. The descriptor is the
 * caller's to close(). It keeps reading the attribute it was opened on:
 * once the attribute or its device is removed, every read fails with
 * -ENODEV, even if a new device appears at the same path; open it again
 * then.
 *
 * Return: a read-only descriptor with FD_CLOEXEC set, or a negative errno
 * as kevent_attr_read() gives it for the open (-EINVAL, -ENODEV, -ENOENT,
 * -ELOOP, -EXDEV, -EISDIR, -EACCES, -EMFILE, ...).
 */
int kevent_attr_open(const char *path, const char *attr);

/**
 * kevent_attr_read_fd() - read the current value through a descriptor
 * @fd: a descriptor from kevent_attr_open()
 * @ret_value: as for kevent_attr_read()
 * @ret_len: as for kevent_attr_read(); may be NULL
 *
 * Reads from offset 0 with pread(), so that sysfs produces the current
 * value each time; the file offset does not move.
 *
 * Return: 0 on success; -EINVAL if @fd is negative or @ret_value NULL;
 * -ENODEV if the attribute was removed since it was opened; -EFBIG;
 * -ENOMEM; or the negative errno of the read as the attribute's driver
 * reports it.
 */
int kevent_attr_read_fd(int fd, char **ret_value, size_t *ret_len);

/**
 * kevent_device_get_subsystem() - subsystem of the device at a kobject path
 * @path: kobject path relative to /sys
 * @ret_subsystem: the subsystem name, such as "platform"; to be freed with
 *	free()
 *
 * Looked up afresh on every call: the last component of the device's
 * "subsystem" link, read below /sys with openat2(); where that fails or is
 * not available, libudev answers.
 *
 * Return: 0 on success; -EINVAL if an argument is NULL or @path fails
 * validation; -ENODEV if no device exists at @path; -ENOENT if the device
 * has no subsystem; -EXDEV if openat2() finds that @path crosses a mount
 * point below /sys;
 * -ENOMEM.
 */
int kevent_device_get_subsystem(const char *path, char **ret_subsystem);

struct kevent_uevent_monitor;

/**
 * kevent_uevent_monitor_new() - receive attribute change uevents
 * @ret_monitor: the new monitor
 *
 * Listens to the kernel's uevents through libudev (the "kernel" source, no
 * udev daemon needed) and keeps those of action "change" that carry a
 * NAME=<attribute> property, the convention of hwmon_notify_event(), from
 * a subsystem that follows it (hwmon) and with a NAME of [a-z0-9_]+ only:
 * each becomes an event of attribute NAME of the uevent's DEVPATH. Others
 * use NAME= for something else (an input device for its product name).
 *
 * Return: 0; -ENOMEM; or the negative errno of the socket calls.
 */
int kevent_uevent_monitor_new(struct kevent_uevent_monitor **ret_monitor);

/* Take a reference. Return: @monitor. */
struct kevent_uevent_monitor *
kevent_uevent_monitor_ref(struct kevent_uevent_monitor *monitor);

/* Drop a reference; the last one closes and frees it. Return: NULL. */
struct kevent_uevent_monitor *
kevent_uevent_monitor_unref(struct kevent_uevent_monitor *monitor);

/* Non-blocking descriptor, readable when there may be an event; or -EINVAL. */
int kevent_uevent_monitor_get_fd(struct kevent_uevent_monitor *monitor);

/**
 * kevent_uevent_monitor_receive() - take the next attribute uevent
 * @monitor: the monitor
 * @ret_event: the event, a new reference, when 0 is returned; else NULL
 *	or unchanged
 *
 * Never blocks. Other uevents, and those whose DEVPATH or NAME fail
 * validation or come from another subsystem, are skipped.
 *
 * Return: 0; -EAGAIN if nothing is pending; -ENOBUFS if uevents were lost
 * (the monitor stays usable); -EINVAL; -ENOMEM; or a negative errno of
 * recvmsg().
 */
int kevent_uevent_monitor_receive(struct kevent_uevent_monitor *monitor,
				  struct kevent_event **ret_event);

struct kevent_poll_monitor;

/**
 * kevent_poll_monitor_new() - watch sysfs attribute files with poll()
 * @ret_monitor: the new monitor, watching no file yet
 *
 * Return: 0; -ENOMEM; or the negative errno of epoll_create1().
 */
int kevent_poll_monitor_new(struct kevent_poll_monitor **ret_monitor);

/* Take a reference. Return: @monitor. */
struct kevent_poll_monitor *
kevent_poll_monitor_ref(struct kevent_poll_monitor *monitor);

/*
 * Drop a reference; the last one closes every file and frees the monitor.
 * Return: NULL.
 */
struct kevent_poll_monitor *
kevent_poll_monitor_unref(struct kevent_poll_monitor *monitor);

/**
 * kevent_poll_monitor_add() - watch one sysfs attribute file
 * @monitor: the monitor
 * @file: the file, absolute or relative to the working directory; symbolic
 *	links (such as /sys/class/hwmon/hwmon0) are resolved
 *
 * The file is opened, read once, and waited for with POLLPRI|POLLERR, the
 * wake-up of sysfs_notify(). Its events have as path the kobject directory
 * relative to /sys and as attribute the file name.
 *
 * Return: 0; -EXDEV if @file is not a file of sysfs below /sys; -EISDIR;
 * -EINVAL for a NULL argument or a name that fails validation; -EEXIST if
 * the file is watched already; -ENOMEM; or the negative errno of
 * realpath() or open(), such as -ENOENT or -EACCES.
 */
int kevent_poll_monitor_add(struct kevent_poll_monitor *monitor,
			    const char *file);

/* Non-blocking descriptor, readable when a file was notified; or -EINVAL. */
int kevent_poll_monitor_get_fd(struct kevent_poll_monitor *monitor);

/**
 * kevent_poll_monitor_receive() - take the next notified file
 * @monitor: the monitor
 * @ret_event: the event, a new reference; set only when 0 is returned
 *
 * Never blocks. Each file is re-read from offset 0 when it wakes, which
 * re-arms it; its event is reported once per wake-up. A file whose
 * attribute went away (the read fails with ENODEV) is reported once more,
 * then no longer watched.
 *
 * Return: 0; -EAGAIN if nothing is pending; -EINVAL; -ENOMEM; or the
 * negative errno of epoll_wait().
 */
int kevent_poll_monitor_receive(struct kevent_poll_monitor *monitor,
				struct kevent_event **ret_event);

struct kevent_stock_monitor;

/**
 * kevent_stock_monitor_new() - receive the attribute events of a stock kernel
 * @ret_monitor: the new monitor
 *
 * One monitor over what a kernel without the kevent layer sends already:
 * its uevents (NETLINK_KOBJECT_UEVENT, the kernel's group) and its
 * rtnetlink link messages (RTNLGRP_LINK), and the sysfs files added with
 * kevent_stock_monitor_add_file(), behind one descriptor. The events:
 *
 * - hwmon: a change uevent with an attribute-shaped NAME= (see
 *   kevent_uevent_monitor_new()): attribute NAME, class power;
 * - power supplies: each change uevent is compared with the last values
 *   seen of the device, and each POWER_SUPPLY_<NAME> property whose
 *   lower-cased name is a registered attribute (capacity, status, online)
 *   and whose value changed is an event, class power; the values of the
 *   supplies present are read when the monitor is made, those of a supply
 *   added later come with its add uevent, neither as events;
 * - network devices: each RTM_NEWLINK message is compared with the last
 *   values seen of its interface, and operstate, carrier, mtu and address
 *   are an event each when they changed, class net, subsystem "net", path
 *   the device's (/sys/class/net/NAME resolved); the devices present are
 *   read with a dump when the monitor is made; a new device's first
 *   message, a rename and RTM_DELLINK are no event;
 * - CPUs: an online or offline uevent: attribute online, class hotplug;
 * - block devices: a change uevent with RESIZE=1: attribute size, class
 *   storage.
 *
 * Messages are taken from the kernel only: those whose sender port id is
 * not 0, and uevents without root's credentials, are dropped and counted
 * (kevent_stock_monitor_get_forged()).
 *
 * Return: 0; -ENOMEM; or the negative errno of a socket call (the
 * subscription or the dump of the network devices).
 */
int kevent_stock_monitor_new(struct kevent_stock_monitor **ret_monitor);

/* Take a reference. Return: @monitor. */
struct kevent_stock_monitor *
kevent_stock_monitor_ref(struct kevent_stock_monitor *monitor);

/* Drop a reference; the last one closes and frees it. Return: NULL. */
struct kevent_stock_monitor *
kevent_stock_monitor_unref(struct kevent_stock_monitor *monitor);

/**
 * kevent_stock_monitor_add_file() - watch a sysfs attribute file too
 * @monitor: the monitor
 * @file: as for kevent_poll_monitor_add()
 *
 * Its events, of source KEVENT_EVENT_SOURCE_POLL, come from the same
 * descriptor.
 *
 * Return: as kevent_poll_monitor_add().
 */
int kevent_stock_monitor_add_file(struct kevent_stock_monitor *monitor,
				  const char *file);

/**
 * kevent_stock_monitor_get_fd() - file descriptor to wait on
 * @monitor: the monitor
 *
 * An epoll descriptor that belongs to the monitor, readable while
 * kevent_stock_monitor_receive() has something to report, including the
 * events of one message that it has not returned yet. Only wait on it.
 *
 * Return: the descriptor, or -EINVAL if @monitor is NULL.
 */
int kevent_stock_monitor_get_fd(struct kevent_stock_monitor *monitor);

/**
 * kevent_stock_monitor_receive() - take the next event
 * @monitor: the monitor
 * @ret_event: the event, a new reference, when 0 is returned; else NULL
 *	or unchanged
 *
 * Never blocks. Uevents have the uevent's SEQNUM as sequence number and
 * source KEVENT_EVENT_SOURCE_UEVENT; link messages sequence number 0 and
 * source KEVENT_EVENT_SOURCE_RTNETLINK.
 *
 * Return: 0; -EAGAIN if nothing is pending; -ENOBUFS if messages were lost
 * (a socket overflowed): the monitor has read the values of the power
 * supplies and network devices again, without events, and stays usable,
 * and the caller should re-read the state it cares about
 * (kevent_stock_foreach()); -EINVAL; -ENOMEM; or the negative errno of
 * epoll_wait() or recvmsg().
 */
int kevent_stock_monitor_receive(struct kevent_stock_monitor *monitor,
				 struct kevent_event **ret_event);

/* Messages dropped as not sent by the kernel; 0 for a NULL @monitor. */
uint64_t
kevent_stock_monitor_get_forged(const struct kevent_stock_monitor *monitor);

/**
 * kevent_stock_foreach() - visit the attributes the stock monitor reports
 * @cb: called once per attribute of every device present, with a record
 *	as the monitor's events have them (sequence number 0)
 * @userdata: passed to @cb
 *
 * The alarms (*_alarm) of every hwmon device; the registered attributes of
 * every power supply (capacity, status, online, as it has them);
 * operstate, carrier, mtu and address of every network device; online of
 * every CPU that has the file; size of every block device of /sys/block.
 *
 * Return: 0 when all were visited; the value @cb returned to stop, as is
 * (positive if @cb stops with a positive value, see kevent_event_cb);
 * -EINVAL if @cb is NULL; -ENOMEM.
 */
int kevent_stock_foreach(kevent_event_cb cb, void *userdata);

struct kevent_sample_monitor;

/**
 * kevent_sample_monitor_new() - sample sysfs attributes the kernel never
 *	announces
 * @ret_monitor: the new monitor, sampling no attribute yet
 * @interval_usec: the interval, in microseconds, at which every attribute
 *	is read
 *
 * For the attributes whose changes no notification announces (most hwmon
 * temperatures, network statistics): each attribute added is opened once,
 * read once when added (its baseline, no event), then read with one
 * pread() from offset 0 at the end of every interval; an attribute whose
 * value changed since the last one reported is an event of source
 * KEVENT_EVENT_SOURCE_SAMPLE (sequence number 0, the class of its name in
 * the registry or KEVENT_CLASS_UNKNOWN, the time of the read). A read that
 * fails is a value too: a read that starts or stops failing, or fails
 * with another error, is a change (the caller reads the attribute again
 * and reports the error).
 *
 * Return: 0; -EINVAL if @ret_monitor is NULL or @interval_usec 0; -ENOMEM;
 * or the negative errno of epoll_create1(), timerfd_create() or eventfd().
 */
int kevent_sample_monitor_new(struct kevent_sample_monitor **ret_monitor,
			      uint64_t interval_usec);

/* Take a reference. Return: @monitor. */
struct kevent_sample_monitor *
kevent_sample_monitor_ref(struct kevent_sample_monitor *monitor);

/* Drop a reference; the last one closes every file and frees it. NULL. */
struct kevent_sample_monitor *
kevent_sample_monitor_unref(struct kevent_sample_monitor *monitor);

/**
 * kevent_sample_monitor_set_delta() - report numbers that moved enough only
 * @monitor: the monitor
 * @delta: a value that is a decimal integer (blanks and a newline around
 *	it allowed), and whose last reported value is one too, changed only
 *	when it moved by @delta or more; 0 (the default): any change
 *
 * Values that are not integers change with any change of their bytes. The
 * baseline is the value last reported, so a slow drift is reported once
 * it adds up to @delta.
 *
 * Return: 0, or -EINVAL if @monitor is NULL.
 */
int kevent_sample_monitor_set_delta(struct kevent_sample_monitor *monitor,
				    uint64_t delta);

/**
 * kevent_sample_monitor_add() - sample a sysfs file, or the files of a glob
 * @monitor: the monitor
 * @pattern: a file name, absolute or relative to the working directory, or
 *	a glob(3) pattern such as "/sys/class/hwmon/hwmon?/temp1_input"
 *
 * Symbolic links are resolved: events have as path the kobject directory
 * relative to /sys and as attribute the file name. The pattern is
 * expanded again at the end of every interval: a file that matches from
 * then on is sampled (its first read is its baseline, no event), a file
 * that no longer matches, or whose read fails with ENODEV (its attribute
 * was removed), is let go without an event, and followed again if it comes
 * back. Matches that are not files of sysfs below /sys, and a file matched
 * under two names, are sampled once or not at all, without error.
 *
 * Return: 0; -EXDEV if @pattern is an absolute name not below /sys, or a
 * file name (no wildcard) that is not a file of sysfs below /sys; -EISDIR
 * for a directory; -EEXIST if @pattern was added already; -EINVAL for a
 * NULL or empty argument or a name that fails validation; -ENOMEM; or the
 * negative errno of realpath() or open() of a file name, such as -ENOENT
 * or -EACCES. A pattern with a wildcard that matches nothing yet is no
 * error.
 */
int kevent_sample_monitor_add(struct kevent_sample_monitor *monitor,
			      const char *pattern);

/* Files sampled now (the matches of the patterns, each once); 0 for NULL. */
size_t
kevent_sample_monitor_get_count(const struct kevent_sample_monitor *monitor);

/**
 * kevent_sample_monitor_get_fd() - file descriptor to wait on
 * @monitor: the monitor
 *
 * An epoll descriptor that belongs to the monitor, readable when an
 * interval has ended and while events of the last interval are not all
 * taken. Only wait on it.
 *
 * Return: the descriptor, or -EINVAL if @monitor is NULL.
 */
int kevent_sample_monitor_get_fd(struct kevent_sample_monitor *monitor);

/**
 * kevent_sample_monitor_receive() - take the next changed attribute
 * @monitor: the monitor
 * @ret_event: the event, a new reference; set only when 0 is returned
 *
 * Never blocks. When an interval has ended, the patterns are expanded and
 * every attribute is read, and an event is queued for each that changed,
 * in the order of their file names; the events are then returned one a
 * call. Intervals that ended while the caller did not call are one.
 *
 * Return: 0; -EAGAIN if nothing is pending; -EINVAL; -ENOMEM; or the
 * negative errno of reading the timer.
 */
int kevent_sample_monitor_receive(struct kevent_sample_monitor *monitor,
				  struct kevent_event **ret_event);

/**
 * kevent_sample_monitor_foreach() - visit the attributes sampled
 * @monitor: the monitor
 * @cb: called once per attribute sampled now, with a record as the
 *	monitor's events have them, in the order of their file names
 * @userdata: passed to @cb
 *
 * Return: 0 when all were visited; the value @cb returned to stop, as is
 * (positive if @cb stops with a positive value, see kevent_event_cb);
 * -EINVAL if an argument is NULL; -ENOMEM.
 */
int kevent_sample_monitor_foreach(struct kevent_sample_monitor *monitor,
				  kevent_event_cb cb, void *userdata);

/* The kinds of monitor a combined monitor holds, as its receive names them */
enum kevent_backend {
	KEVENT_BACKEND_KEVENT,	/* a kevent_monitor: the kevent layer */
	KEVENT_BACKEND_UEVENT,	/* a kevent_uevent_monitor */
	KEVENT_BACKEND_POLL,	/* a kevent_poll_monitor */
	KEVENT_BACKEND_STOCK,	/* a kevent_stock_monitor */
	KEVENT_BACKEND_SAMPLE,	/* a kevent_sample_monitor */
};

/* "kevent", "uevent", "poll", "stock" or "sample"; NULL for an unknown value. */
const char *kevent_backend_to_string(enum kevent_backend backend);

struct kevent_combined_monitor;

/**
 * kevent_combined_monitor_new() - one descriptor for several monitors
 * @ret_monitor: the new monitor, holding no monitor yet
 *
 * A program that takes events from the kevent layer and from the stock
 * kernel's mechanisms, or samples files beside them, adds each monitor it
 * made (joined, filtered, with its files) and then waits on one descriptor
 * and receives from one function, as it would with libudev's monitor.
 *
 * Return: 0; -EINVAL; -ENOMEM; or the negative errno of epoll_create1().
 */
int kevent_combined_monitor_new(struct kevent_combined_monitor **ret_monitor);

/* Take a reference. Return: @monitor. */
struct kevent_combined_monitor *
kevent_combined_monitor_ref(struct kevent_combined_monitor *monitor);

/*
 * Drop a reference; the last one drops the references it holds to its
 * monitors and frees it. Return: NULL.
 */
struct kevent_combined_monitor *
kevent_combined_monitor_unref(struct kevent_combined_monitor *monitor);

/**
 * kevent_combined_monitor_add_kevent() - receive a monitor's events too
 * @monitor: the combined monitor
 * @member: the monitor added; the combined monitor takes a reference
 *
 * kevent_combined_monitor_add_uevent(), _add_poll(), _add_stock() and
 * _add_sample() do the same for the other monitors. A monitor may be added
 * to one combined monitor once, and is still the caller's to use: to
 * join classes, add files, read its counters. Its events are not to be
 * received but through the combined monitor.
 *
 * Return: 0; -EINVAL if an argument is NULL; -EEXIST if @member was added
 * already; -ENOMEM; or the negative errno of epoll_ctl().
 */
int kevent_combined_monitor_add_kevent(struct kevent_combined_monitor *monitor,
				       struct kevent_monitor *member);
int kevent_combined_monitor_add_uevent(struct kevent_combined_monitor *monitor,
				       struct kevent_uevent_monitor *member);
int kevent_combined_monitor_add_poll(struct kevent_combined_monitor *monitor,
				     struct kevent_poll_monitor *member);
int kevent_combined_monitor_add_stock(struct kevent_combined_monitor *monitor,
				      struct kevent_stock_monitor *member);
int kevent_combined_monitor_add_sample(struct kevent_combined_monitor *monitor,
				       struct kevent_sample_monitor *member);

/**
 * kevent_combined_monitor_get_fd() - file descriptor to wait on
 * @monitor: the monitor
 *
 * An epoll descriptor that belongs to the monitor, readable while one of
 * its monitors has something to report. Only wait on it.
 *
 * Return: the descriptor, or -EINVAL if @monitor is NULL.
 */
int kevent_combined_monitor_get_fd(struct kevent_combined_monitor *monitor);

/**
 * kevent_combined_monitor_receive() - take the next event of any monitor
 * @monitor: the monitor
 * @ret_event: the event, a new reference, when 0 is returned; else NULL
 *	or unchanged
 * @ret_backend: when not NULL, which kind of monitor gave the event or the
 *	error; set unless -EAGAIN, -EINVAL or an error of
 *	epoll_wait() is returned
 *
 * Never blocks. The monitors take turns, one event each, so that a storm on
 * one does not hold back the events of the others.
 *
 * Return: 0; -EAGAIN if no monitor has anything pending; -EINVAL; the
 * negative errno of epoll_wait(); or what the receive function of the
 * monitor named in @ret_backend returned, such as -ENOBUFS (its events
 * were lost; it stays usable): see kevent_monitor_receive(),
 * kevent_uevent_monitor_receive(), kevent_poll_monitor_receive(),
 * kevent_stock_monitor_receive() and kevent_sample_monitor_receive().
 */
int kevent_combined_monitor_receive(struct kevent_combined_monitor *monitor,
				    struct kevent_event **ret_event,
				    enum kevent_backend *ret_backend);

#ifdef __cplusplus
}
#endif

#endif /* KEVENT_KEVENT_H */
