// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-dbus: an object on the bus for each kobject that has sources, its
 * attributes the properties of its interface (see objects.h)
 *
 * Each object has a vtable of its own, made when it is added and made again
 * when an attribute is added to it: one read-only property of signature
 * "s" per attribute, whose getter reads the attribute's current value from
 * sysfs. The table is an array searched by path: a machine has tens or
 * hundreds of sources, and an event costs one search.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevent/kevent.h>

#include "names.h"
#include "objects.h"

struct kdbus_object {
	struct kdbus_objects *objects;
	char *path;		/* kobject path, relative to /sys */
	char *object_path;
	char **attrs;		/* attribute names */
	char **props;		/* their property names */
	char **values;		/* the value last read of each, or NULL */
	size_t n_attrs;
	int fresh;		/* index of a value read for the getter, or -1 */
	sd_bus_vtable *vtable;
	sd_bus_slot *slot;
};

struct kdbus_objects {
	sd_bus *bus;
	struct kdbus_object **objs;
	size_t n, size;
};

int kdbus_objects_new(sd_bus *bus, struct kdbus_objects **ret)
{
	struct kdbus_objects *objects = calloc(1, sizeof(*objects));

	if (!objects)
		return -ENOMEM;
	objects->bus = sd_bus_ref(bus);
	*ret = objects;
	return 0;
}

size_t kdbus_objects_count(const struct kdbus_objects *objects)
{
	return objects->n;
}

static void object_free(struct kdbus_object *obj)
{
	size_t i;

	sd_bus_slot_unref(obj->slot);
	for (i = 0; i < obj->n_attrs; i++) {
		free(obj->attrs[i]);
		free(obj->props[i]);
		free(obj->values[i]);
	}
	free(obj->attrs);
	free(obj->props);
	free(obj->values);
	free(obj->vtable);
	free(obj->object_path);
	free(obj->path);
	free(obj);
}

void kdbus_objects_free(struct kdbus_objects *objects)
{
	size_t i;

	if (!objects)
		return;
	for (i = 0; i < objects->n; i++)
		object_free(objects->objs[i]);
	free(objects->objs);
	sd_bus_unref(objects->bus);
	free(objects);
}

static struct kdbus_object *object_find(struct kdbus_objects *objects,
					const char *path, size_t *ret_index)
{
	size_t i;

	for (i = 0; i < objects->n; i++) {
		if (!strcmp(objects->objs[i]->path, path)) {
			if (ret_index)
				*ret_index = i;
			return objects->objs[i];
		}
	}
	return NULL;
}

static int attr_index(const struct kdbus_object *obj, const char *attr)
{
	size_t i;

	for (i = 0; i < obj->n_attrs; i++)
		if (!strcmp(obj->attrs[i], attr))
			return i;
	return -1;
}

/*
 * Read the value of @attr of @path: 0 with the value in *@ret (the empty
 * string when it cannot be read), or -ENODEV when the kobject is gone.
 */
static int read_value(const char *path, const char *attr, char **ret)
{
	char *raw = NULL;
	size_t len = 0;
	int r;

	r = kevent_attr_read(path, attr, &raw, &len);
	if (r == -ENODEV)
		return r;
	*ret = kdbus_value_string(r < 0 ? "" : raw, r < 0 ? 0 : len);
	free(raw);
	return *ret ? 0 : -ENOMEM;
}

/* The getter of every property: the attribute's value read now */
static int get_value(sd_bus *bus, const char *object_path,
		     const char *interface, const char *property,
		     sd_bus_message *reply, void *userdata,
		     sd_bus_error *error)
{
	struct kdbus_object *obj = userdata;
	char *value;
	size_t i;
	int r;

	(void)bus;
	(void)object_path;
	(void)interface;
	for (i = 0; i < obj->n_attrs; i++)
		if (!strcmp(obj->props[i], property))
			break;
	if (i == obj->n_attrs)
		return sd_bus_error_setf(error, SD_BUS_ERROR_UNKNOWN_PROPERTY,
					 "no property %s", property);
	/* The value an event's caller has just read, to be sent as is */
	if (obj->fresh == (int)i && obj->values[i]) {
		obj->fresh = -1;
		return sd_bus_message_append(reply, "s", obj->values[i]);
	}
	/*
	 * A value that cannot be read is the empty string: a network
	 * device's carrier while it is down reads EINVAL, and an error here
	 * would fail GetAll and GetManagedObjects for every other value.
	 */
	r = read_value(obj->path, obj->attrs[i], &value);
	if (r == -ENODEV)
		value = strdup("");
	if (!value)
		return -ENOMEM;
	r = sd_bus_message_append(reply, "s", value);
	free(obj->values[i]);
	obj->values[i] = value;
	return r;
}

/* (Re)make the object's vtable and put it on the bus under its path */
static int object_register(struct kdbus_object *obj)
{
	sd_bus_vtable *vt;
	size_t i;
	int r;

	vt = calloc(obj->n_attrs + 2, sizeof(*vt));
	if (!vt)
		return -ENOMEM;
	vt[0] = (sd_bus_vtable)SD_BUS_VTABLE_START(0);
	for (i = 0; i < obj->n_attrs; i++)
		vt[i + 1] = (sd_bus_vtable)SD_BUS_PROPERTY(obj->props[i], "s",
				get_value, 0,
				SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE);
	vt[i + 1] = (sd_bus_vtable)SD_BUS_VTABLE_END;

	obj->slot = sd_bus_slot_unref(obj->slot);
	free(obj->vtable);
	obj->vtable = vt;
	r = sd_bus_add_object_vtable(obj->objects->bus, &obj->slot,
				     obj->object_path, KDBUS_IFACE, vt, obj);
	return r < 0 ? r : 0;
}

/* Add @attr to @obj's arrays; its vtable is the caller's to remake */
static int object_add_attr(struct kdbus_object *obj, const char *attr)
{
	char *a = NULL, *p = NULL, **attrs, **props, **values;
	size_t n = obj->n_attrs + 1;
	int r;

	r = kdbus_property_name(attr, &p);
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	a = strdup(attr);
	attrs = reallocarray(obj->attrs, n, sizeof(*attrs));
	if (attrs)
		obj->attrs = attrs;
	props = reallocarray(obj->props, n, sizeof(*props));
	if (props)
		obj->props = props;
	values = reallocarray(obj->values, n, sizeof(*values));
	if (values)
		obj->values = values;
	if (!a || !attrs || !props || !values) {
		free(a);
		free(p);
		return -ENOMEM;
	}
	attrs[n - 1] = a;
	props[n - 1] = p;
	values[n - 1] = NULL;
	obj->n_attrs = n;
	return 0;
}

static int object_new(struct kdbus_objects *objects, const char *path,
		      struct kdbus_object **ret)
{
	struct kdbus_object **objs, *obj;
	int r;

	if (objects->n == objects->size) {
		size_t size = objects->size ? objects->size * 2 : 16;

		objs = reallocarray(objects->objs, size, sizeof(*objs));
		if (!objs)
			return -ENOMEM;
		objects->objs = objs;
		objects->size = size;
	}
	obj = calloc(1, sizeof(*obj));
	if (!obj)
		return -ENOMEM;
	obj->objects = objects;
	obj->fresh = -1;
	obj->path = strdup(path);
	if (!obj->path) {
		free(obj);
		return -ENOMEM;
	}
	r = kdbus_object_path(path, &obj->object_path);
	if (r < 0) {
		object_free(obj);
		return r;
	}
	*ret = obj;
	return 0;
}

int kdbus_objects_add(struct kdbus_objects *objects, const char *path,
		      const char *attr, bool announce)
{
	struct kdbus_object *obj;
	bool is_new = false;
	int r;

	obj = object_find(objects, path, NULL);
	if (obj && attr_index(obj, attr) >= 0)
		return 0;
	if (!obj) {
		r = object_new(objects, path, &obj);
		if (r < 0)
			return r;
		is_new = true;
	}
	r = object_add_attr(obj, attr);
	if (r < 0)
		goto fail;
	r = object_register(obj);
	if (r < 0)
		goto fail;
	if (is_new)
		objects->objs[objects->n++] = obj;
	if (!announce)
		return 1;
	if (is_new)
		r = sd_bus_emit_interfaces_added(objects->bus, obj->object_path,
						 KDBUS_IFACE, NULL);
	else
		r = sd_bus_emit_properties_changed(objects->bus,
				obj->object_path, KDBUS_IFACE,
				obj->props[obj->n_attrs - 1], NULL);
	/* A value that cannot be read now is no reason to drop the source */
	if (r < 0)
		fprintf(stderr, "kevent-dbus: cannot announce %s/%s: %s\n",
			path, attr, strerror(-r));
	return 1;
fail:
	if (is_new) {
		object_free(obj);
	} else if (obj->n_attrs && !strcmp(obj->attrs[obj->n_attrs - 1], attr)) {
		/* Back to the attributes it had, on the bus as before */
		obj->n_attrs--;
		free(obj->attrs[obj->n_attrs]);
		free(obj->props[obj->n_attrs]);
		free(obj->values[obj->n_attrs]);
		object_register(obj);
	}
	return r;
}

/* Take the object at @index off the bus and out of the table */
static void object_remove(struct kdbus_objects *objects, size_t index)
{
	struct kdbus_object *obj = objects->objs[index];
	int r;

	r = sd_bus_emit_interfaces_removed(objects->bus, obj->object_path,
					   KDBUS_IFACE, NULL);
	if (r < 0)
		fprintf(stderr, "kevent-dbus: cannot announce the removal of %s: %s\n",
			obj->path, strerror(-r));
	object_free(obj);
	objects->objs[index] = objects->objs[--objects->n];
}

int kdbus_objects_changed(struct kdbus_objects *objects, const char *path,
			  const char *attr)
{
	struct kdbus_object *obj;
	char *value = NULL;
	size_t index;
	int i, r;

	/*
	 * Read first: the event of a device's last change may arrive after
	 * the uevent of its removal, and must not bring its object back
	 */
	r = read_value(path, attr, &value);
	obj = object_find(objects, path, &index);
	if (r == -ENODEV) {
		if (obj)
			object_remove(objects, index);
		return 0;
	}
	if (r < 0)
		return r;
	i = obj ? attr_index(obj, attr) : -1;
	if (i < 0) {
		free(value);
		/* A new source: its value is in the announcement */
		return kdbus_objects_add(objects, path, attr, true) < 0 ? -EINVAL : 0;
	}
	free(obj->values[i]);
	obj->values[i] = value;
	obj->fresh = i;
	r = sd_bus_emit_properties_changed(objects->bus, obj->object_path,
					   KDBUS_IFACE, obj->props[i], NULL);
	obj->fresh = -1;
	if (r < 0)
		fprintf(stderr, "kevent-dbus: cannot send the change of %s/%s: %s\n",
			path, attr, strerror(-r));
	return 0;
}

void kdbus_objects_refresh(struct kdbus_objects *objects)
{
	struct kdbus_object *obj;
	size_t i = 0, a;
	char *value;
	int r;

	while (i < objects->n) {
		obj = objects->objs[i];
		for (a = 0; a < obj->n_attrs; a++) {
			r = read_value(obj->path, obj->attrs[a], &value);
			if (r == -ENODEV)
				break;
			if (r < 0)
				continue;
			if (obj->values[a] && !strcmp(value, obj->values[a])) {
				free(value);
				continue;
			}
			free(obj->values[a]);
			obj->values[a] = value;
			obj->fresh = a;
			sd_bus_emit_properties_changed(objects->bus,
					obj->object_path, KDBUS_IFACE,
					obj->props[a], NULL);
			obj->fresh = -1;
		}
		if (a < obj->n_attrs) {
			object_remove(objects, i);
			continue;
		}
		i++;
	}
}

int kdbus_objects_remove(struct kdbus_objects *objects, const char *path)
{
	size_t i = 0, len = strlen(path);
	int n = 0;

	while (i < objects->n) {
		const char *p = objects->objs[i]->path;

		if (!strncmp(p, path, len) && (p[len] == '\0' || p[len] == '/')) {
			object_remove(objects, i);
			n++;
			continue;
		}
		i++;
	}
	return n;
}
