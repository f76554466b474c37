// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the replay ring, the last events sent, for listeners that start
 * late (KEVENT_CMD_GET_REPLAY).
 *
 * Every event is recorded, whether or not anybody listens, in the order of
 * its sequence number. The ring holds at most @replay events; the oldest
 * is dropped to make room. Each entry owns a copy of its kobject path, so
 * the memory is bounded by @replay entries of at most KEVENT_PATH_MAX bytes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/error-injection.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kevent_internal.h"

/* Largest ring the module parameter allows */
#define KEVENT_REPLAY_MAX	65536

static int kevent_replay_param_set(const char *val,
				   const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, KEVENT_REPLAY_MAX);
}

static const struct kernel_param_ops kevent_replay_param_ops = {
	.set	= kevent_replay_param_set,
	.get	= param_get_uint,
};

static unsigned int replay = 256;
module_param_cb(replay, &kevent_replay_param_ops, &replay, 0444);
MODULE_PARM_DESC(replay,
		 "Events kept for late listeners (0 to 65536, 0 disables, default 256)");

/*
 * Protects the ring. Entries are added in order of their sequence numbers
 * (kevent_emit() serialises them), so the ring is sorted from @head on.
 */
static DEFINE_MUTEX(kevent_replay_lock);
static struct kevent_record *kevent_replay_ring;
static unsigned int kevent_replay_size;
static unsigned int kevent_replay_head;	/* the oldest entry */
static unsigned int kevent_replay_count;
/* Sequence number of the newest event dropped to make room, 0 for none */
static u64 kevent_replay_evicted;

/* The entry at position @pos, counted from the start of the array, mod size */
static struct kevent_record *kevent_replay_entry(unsigned int pos)
{
	return &kevent_replay_ring[pos % kevent_replay_size];
}

/**
 * kevent_replay_init - allocate the ring
 *
 * Context: Process context, module init.
 * Return: 0, or -ENOMEM.
 */
int __init kevent_replay_init(void)
{
	kevent_replay_size = replay;
	if (!kevent_replay_size)
		return 0;

	kevent_replay_ring = kvcalloc(kevent_replay_size,
				      sizeof(*kevent_replay_ring), GFP_KERNEL);
	if (!kevent_replay_ring)
		return -ENOMEM;

	return 0;
}

/**
 * kevent_replay_exit - free the ring and the paths it holds
 *
 * Context: Process context, module exit, after the family is unregistered.
 */
void kevent_replay_exit(void)
{
	unsigned int i;

	for (i = 0; i < kevent_replay_size; i++)
		kfree(kevent_replay_ring[i].path);
	kvfree(kevent_replay_ring);
	kevent_replay_ring = NULL;
	kevent_replay_size = 0;
	kevent_replay_count = 0;
	kevent_replay_evicted = 0;
}

/**
 * kevent_replay_record - remember an event
 * @rec: the event; its sequence number is greater than that of any event
 *	recorded before. Its path and name are copied.
 *
 * An event that cannot be recorded (out of memory) is left out of the
 * ring; a replay then shows a gap in the sequence numbers.
 *
 * Context: Process context.
 * Return: 0 (also when the ring is disabled), or -ENOMEM.
 */
int kevent_replay_record(const struct kevent_record *rec)
{
	struct kevent_record *entry;
	size_t path_len, name_len;
	char *copy;

	if (!kevent_replay_size)
		return 0;

	/* The path, and after it the name the registry does not list */
	path_len = strlen(rec->path) + 1;
	name_len = rec->name ? strlen(rec->name) + 1 : 0;
	copy = kmalloc(path_len + name_len, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec->path, path_len);
	if (rec->name)
		memcpy(copy + path_len, rec->name, name_len);

	mutex_lock(&kevent_replay_lock);

	if (kevent_replay_count < kevent_replay_size) {
		entry = kevent_replay_entry(kevent_replay_head +
					    kevent_replay_count);
		kevent_replay_count++;
	} else {
		/* Full: the oldest entry makes room */
		entry = kevent_replay_entry(kevent_replay_head);
		kevent_replay_evicted = entry->seq;
		kevent_replay_head = (kevent_replay_head + 1) %
				     kevent_replay_size;
	}

	kfree(entry->path);
	*entry = *rec;
	entry->path = copy;
	entry->name = rec->name ? copy + path_len : NULL;

	mutex_unlock(&kevent_replay_lock);

	return 0;
}

/* Fault injection (fail_function) can make it fail, as the tests do */
ALLOW_ERROR_INJECTION(kevent_replay_record, ERRNO);

/**
 * kevent_replay_memory - memory the ring takes
 * @ret_count: the number of events it holds
 *
 * Context: Process context.
 * Return: the bytes allocated for the ring and the paths it holds.
 */
size_t kevent_replay_memory(unsigned int *ret_count)
{
	size_t bytes = 0;
	unsigned int i;

	mutex_lock(&kevent_replay_lock);
	if (kevent_replay_ring)
		bytes = kevent_replay_size * sizeof(*kevent_replay_ring);
	for (i = 0; i < kevent_replay_count; i++)
		bytes += ksize(kevent_replay_entry(kevent_replay_head + i)->path);
	*ret_count = kevent_replay_count;
	mutex_unlock(&kevent_replay_lock);

	return bytes;
}

/**
 * kevent_replay_foreach - visit the events held, oldest first
 * @after: visit only the events with a sequence number greater than this
 * @fn: called for each event under the ring's lock; a non-zero return stops
 * @data: passed to @fn
 * @ret_evicted: set, before @fn is first called, to whether events with a
 *	sequence number greater than @after were dropped to make room
 *
 * Context: Process context; @fn must not sleep for long or record events.
 * Return: what @fn returned last, 0 if it was not called.
 */
int kevent_replay_foreach(u64 after,
			  int (*fn)(const struct kevent_record *rec,
				    void *data),
			  void *data, bool *ret_evicted)
{
	unsigned int lo = 0, hi, mid;
	int ret = 0;

	mutex_lock(&kevent_replay_lock);
	*ret_evicted = kevent_replay_evicted > after;

	/* The ring is sorted: find the first event newer than @after */
	hi = kevent_replay_count;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kevent_replay_entry(kevent_replay_head + mid)->seq <= after)
			lo = mid + 1;
		else
			hi = mid;
	}

	for (; lo < kevent_replay_count; lo++) {
		ret = fn(kevent_replay_entry(kevent_replay_head + lo), data);
		if (ret)
			break;
	}

	mutex_unlock(&kevent_replay_lock);

	return ret;
}
