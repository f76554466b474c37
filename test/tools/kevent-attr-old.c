// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-attr-old - look attribute names up as a program linked to an older
 * libkevent does: its registry is the first KEVENT_ATTRIBUTES_BUILT_IN
 * entries of attributes.txt (see the Makefile)
 *
 * Usage: kevent-attr-old NAME...
 *
 * Prints a line a name: "NAME ID UNIT" (UNIT "-" for none), from
 * kevent_attribute_id() and kevent_attribute_unit(), or "NAME unknown".
 * Exit status 0.
 */
#include <stdio.h>

#include <kevent/kevent.h>

int main(int argc, char **argv)
{
	const char *unit;
	int i, id;

	for (i = 1; i < argc; i++) {
		id = kevent_attribute_id(argv[i]);
		if (id < 0) {
			printf("%s unknown\n", argv[i]);
			continue;
		}
		unit = kevent_attribute_unit(argv[i]);
		printf("%s %d %s\n", argv[i], id, unit ? unit : "-");
	}
	return 0;
}
