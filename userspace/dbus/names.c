// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-dbus: the names a source takes on the bus, and its values made
 * fit for it (see names.h)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-bus.h>

#include "names.h"
#include "utf8.h"

/* The longest member name the D-Bus specification allows */
#define MEMBER_MAX 255

int kdbus_object_path(const char *path, char **ret)
{
	int r;

	if (!path || !*path || !ret)
		return -EINVAL;
	r = sd_bus_path_encode(KDBUS_SOURCES, path, ret);
	return r < 0 ? r : 0;
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int hex_value(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

int kdbus_property_name(const char *attr, char **ret)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;
	char *name;

	if (!attr || !*attr || !ret)
		return -EINVAL;
	/* At worst four bytes for each */
	name = malloc(strlen(attr) * 4 + 1);
	if (!name)
		return -ENOMEM;
	for (i = 0; attr[i]; i++) {
		unsigned char c = attr[i];
		bool keep = is_alnum(c) || c == '_';

		if (i == 0 && c >= '0' && c <= '9')
			keep = false;
		if (c == '_' && attr[i + 1] == 'x')
			keep = false;
		if (keep) {
			name[n++] = c;
		} else {
			name[n++] = '_';
			name[n++] = 'x';
			name[n++] = hex[c >> 4];
			name[n++] = hex[c & 15];
		}
	}
	name[n] = '\0';
	if (n > MEMBER_MAX) {
		free(name);
		return -ENAMETOOLONG;
	}
	*ret = name;
	return 0;
}

int kdbus_property_attr(const char *name, char **ret)
{
	size_t i, n = 0;
	char *attr;

	if (!name || !*name || !ret || strlen(name) > MEMBER_MAX)
		return -EINVAL;
	attr = malloc(strlen(name) + 1);
	if (!attr)
		return -ENOMEM;
	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (c == '_' && name[i + 1] == 'x') {
			if (!is_hex(name[i + 2]) || !is_hex(name[i + 3]))
				goto invalid;
			c = hex_value(name[i + 2]) << 4 | hex_value(name[i + 3]);
			/* What kdbus_property_name() keeps is never escaped */
			if (c == '\0' || ((is_alnum(c) || c == '_') &&
					  !(n == 0 && c >= '0' && c <= '9') &&
					  !(c == '_' && name[i + 4] == 'x')))
				goto invalid;
			i += 3;
		} else if (!is_alnum(c) && c != '_') {
			goto invalid;
		} else if (i == 0 && c >= '0' && c <= '9') {
			goto invalid;
		}
		attr[n++] = c;
	}
	attr[n] = '\0';
	*ret = attr;
	return 0;
invalid:
	free(attr);
	return -EINVAL;
}

/*
 * The length of the valid UTF-8 sequence at @s (at most @len bytes), or 0
 * when the sequence there is not valid (utf8_decode()) or is a NUL, which
 * a D-Bus string cannot hold.
 */
static size_t utf8_valid_len(const unsigned char *s, size_t len)
{
	unsigned int cp;
	size_t n = utf8_decode(s, len, &cp);

	return n && cp ? n : 0;
}

char *kdbus_value_string(const char *value, size_t len)
{
	const unsigned char *s = (const unsigned char *)value;
	size_t i = 0, n = 0, v;
	char *out;

	if (len > 0 && value[len - 1] == '\n')
		len--;
	/* At worst three bytes (U+FFFD) for each */
	out = malloc(len * 3 + 1);
	if (!out)
		return NULL;
	while (i < len) {
		v = utf8_valid_len(s + i, len - i);
		if (v) {
			memcpy(out + n, s + i, v);
			n += v;
			i += v;
		} else {
			memcpy(out + n, "\xef\xbf\xbd", 3);
			n += 3;
			i++;
		}
	}
	out[n] = '\0';
	return out;
}
