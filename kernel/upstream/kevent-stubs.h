/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Without the layer, a driver builds and runs unchanged: each call succeeds
 * and does nothing; the add calls return NULL, which the others take.
 */
static inline int kevent_source_register(struct kevent_source *src,
					 struct kobject *kobj,
					 const struct attribute *attr)
{
	return 0;
}

static inline int kevent_source_register_class(struct kevent_source *src,
					       struct kobject *kobj,
					       const struct attribute *attr,
					       enum kevent_class class)
{
	return 0;
}

static inline int devm_kevent_source_register(struct device *dev,
					      struct kevent_source *src,
					      const struct attribute *attr)
{
	return 0;
}

static inline void kevent_source_unregister(struct kevent_source *src)
{
}

static inline int kevent_source_move(struct kevent_source *src,
				     struct kobject *kobj)
{
	return 0;
}

static inline struct kevent_source *
kevent_source_add(struct kobject *kobj, const struct attribute *attr)
{
	return NULL;
}

static inline struct kevent_source *
kevent_source_add_class(struct kobject *kobj, const struct attribute *attr,
			enum kevent_class class)
{
	return NULL;
}

static inline struct kevent_source *
devm_kevent_source_add(struct device *dev, const struct attribute *attr)
{
	return NULL;
}

static inline void kevent_source_remove(struct kevent_source *src)
{
}

static inline int kevent_source_notify(struct kevent_source *src)
{
	return 0;
}

static inline int kevent_notify(struct kobject *kobj, const char *attr)
{
	return 0;
}
