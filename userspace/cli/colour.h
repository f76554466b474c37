/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: colour in the text output.
 */
#ifndef KEVENT_WATCH_COLOUR_H
#define KEVENT_WATCH_COLOUR_H

#include <stdbool.h>

/* SGR escape sequences (ECMA-48) of the parts of a text line */
#define SGR_KIND "\033[1m" /* KEVENT, STATE, UEVENT, POLL: bold */
#define SGR_ATTR "\033[36m" /* the attribute's name: cyan */
#define SGR_ERROR "\033[31m" /* <error: ENAME>: red */
#define SGR_OVERRUN "\033[33m" /* OVERRUN lost=N: yellow */
#define SGR_RESET "\033[0m"

/*
 * Should the text lines have colour? Only when standard output is a
 * terminal (@tty), NO_COLOR (@no_color, or NULL when unset) is unset or
 * empty (https://no-color.org), TERM (@term, or NULL) is set and not
 * "dumb", and the output is neither JSON nor --format (@json_or_format).
 */
bool colour_wanted(bool tty, const char *no_color, const char *term,
		   bool json_or_format);

#endif /* KEVENT_WATCH_COLOUR_H */
