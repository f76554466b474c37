// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The registry of the running kernel's kevent layer (KEVENT_CMD_GET_ATTRIBUTES),
 * for the names the library's own copy of attributes.txt lacks: a layer
 * built from a newer registry knows more names, and gives each its id, its
 * class and its unit. Ids are positions in an append-only list, so every
 * name both know has the same entry in both.
 *
 * The kernel is asked once per process, the first time a name is not in the
 * library's copy; an answer that cannot be had (no layer, another network
 * namespace, out of memory) leaves the kernel's registry empty for the
 * process.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kevent-private.h"

struct kernel_entry {
	char *name;
	char *unit; /* NULL: none */
	enum kevent_class cls;
	uint32_t id;
};

static struct kernel_entry *kernel_entries;
static size_t n_kernel_entries;
static pthread_once_t kernel_registry_once = PTHREAD_ONCE_INIT;

/* Parse one entry of the dump into @e, its strings copied */
static int entry_parse(const struct nlmsghdr *nlh, struct kernel_entry *e)
{
	const struct nlattr *tb[KEVENT_A_MAX + 1] = { NULL };
	const struct nlattr *attr;
	const char *name, *unit = NULL;
	uint32_t cls;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(attr) <= KEVENT_A_MAX)
			tb[mnl_attr_get_type(attr)] = attr;
	if (!tb[KEVENT_A_ATTR_NAME] || !tb[KEVENT_A_ATTR_ID] ||
	    !tb[KEVENT_A_CLASS] ||
	    !kevent_attr_has_size(tb[KEVENT_A_ATTR_ID], sizeof(uint32_t)) ||
	    !kevent_attr_has_size(tb[KEVENT_A_CLASS], sizeof(uint32_t)))
		return -EPROTO;
	cls = mnl_attr_get_u32(tb[KEVENT_A_CLASS]);
	name = kevent_attr_get_string(tb[KEVENT_A_ATTR_NAME],
				      KEVENT_ATTR_NAME_MAX);
	if (tb[KEVENT_A_UNIT])
		unit = kevent_attr_get_string(tb[KEVENT_A_UNIT],
					      KEVENT_ATTR_NAME_MAX);
	/* Neither the name nor a unit given may be empty */
	if (cls > KEVENT_CLASS_MAX || !name || !*name ||
	    (tb[KEVENT_A_UNIT] && (!unit || !*unit)))
		return -EPROTO;

	*e = (struct kernel_entry){
		.name = strdup(name),
		.unit = unit ? strdup(unit) : NULL,
		.cls = cls,
		.id = mnl_attr_get_u32(tb[KEVENT_A_ATTR_ID]),
	};
	if (!e->name || (unit && !e->unit)) {
		free(e->name);
		free(e->unit);
		return -ENOMEM;
	}
	return 0;
}

static void kernel_registry_free(void)
{
	size_t i;

	for (i = 0; i < n_kernel_entries; i++) {
		free(kernel_entries[i].name);
		free(kernel_entries[i].unit);
	}
	free(kernel_entries);
	kernel_entries = NULL;
	n_kernel_entries = 0;
}

static int entry_add(const struct nlmsghdr *nlh, void *data)
{
	struct kernel_entry *entries;
	int r;

	(void)data;
	entries = reallocarray(kernel_entries, n_kernel_entries + 1,
			       sizeof(*entries));
	if (!entries) {
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	kernel_entries = entries;
	r = entry_parse(nlh, &kernel_entries[n_kernel_entries]);
	if (r < 0) {
		errno = -r;
		return MNL_CB_ERROR;
	}
	n_kernel_entries++;
	return MNL_CB_OK;
}

static void kernel_registry_load(void)
{
	if (kevent_registry_request(entry_add, NULL) < 0)
		kernel_registry_free();
}

/* The process's copy of the kernel's registry goes with it */
__attribute__((destructor)) static void kernel_registry_exit(void)
{
	kernel_registry_free();
}

int kevent_kernel_attribute(const char *name, const char **ret_unit,
			    enum kevent_class *ret_class)
{
	size_t i;

	if (!name)
		return -EINVAL;
	pthread_once(&kernel_registry_once, kernel_registry_load);
	for (i = 0; i < n_kernel_entries; i++)
		if (kevent_registry_name_matches(kernel_entries[i].name, name))
			break;
	if (i == n_kernel_entries || kernel_entries[i].id > INT32_MAX)
		return -ENOENT;
	if (ret_unit)
		*ret_unit = kernel_entries[i].unit;
	if (ret_class)
		*ret_class = kernel_entries[i].cls;
	return kernel_entries[i].id;
}
