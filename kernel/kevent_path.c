// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the kobject paths events name, shared by reference.
 *
 * An event names a kobject path and, when the registry does not list the
 * attribute, the attribute's name. One copy of them serves the source that
 * owns it, each event being sent and each entry of the replay ring that
 * records one: an event of a source takes a reference, and the replay ring
 * records an event without allocating.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kevent_internal.h"

/**
 * kevent_path_new - a path, and a name, that events can share
 * @path: kobject path below /sys, shorter than %KEVENT_PATH_MAX
 * @name: the attribute's name when the registry does not list it, else NULL
 *
 * Context: Process context.
 * Return: the copy, holding one reference, or NULL if out of memory.
 */
struct kevent_path *kevent_path_new(const char *path, const char *name)
{
	size_t path_len = strlen(path) + 1;
	size_t name_len = name ? strlen(name) + 1 : 0;
	struct kevent_path *kp;

	kp = kmalloc(struct_size(kp, path, path_len + name_len), GFP_KERNEL);
	if (!kp)
		return NULL;

	refcount_set(&kp->ref, 1);
	memcpy(kp->path, path, path_len);
	kp->name = NULL;
	if (name) {
		memcpy(kp->path + path_len, name, name_len);
		kp->name = kp->path + path_len;
	}

	return kp;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_path_new);

/**
 * kevent_path_of - the path of a kobject, to name its attributes' events
 * @kobj: the kobject, in sysfs
 *
 * Context: Process context.
 * Return: the path, holding one reference, or an ERR_PTR(): -ENAMETOOLONG
 * if it is %KEVENT_PATH_MAX bytes or longer, -ENOMEM.
 */
struct kevent_path *kevent_path_of(struct kobject *kobj)
{
	struct kevent_path *kp;
	char *path;

	path = kobject_get_path(kobj, GFP_KERNEL);
	if (!path)
		return ERR_PTR(-ENOMEM);

	if (strlen(path) >= KEVENT_PATH_MAX)
		kp = ERR_PTR(-ENAMETOOLONG);
	else
		kp = kevent_path_new(path, NULL) ?: ERR_PTR(-ENOMEM);

	kfree(path);

	return kp;
}

/**
 * kevent_path_put - drop a reference to a path
 * @kp: the path, or NULL
 *
 * Context: Any context but NMI; the last reference frees @kp.
 */
void kevent_path_put(struct kevent_path *kp)
{
	if (kp && refcount_dec_and_test(&kp->ref))
		kfree(kp);
}
EXPORT_SYMBOL_IF_KUNIT(kevent_path_put);
