// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: colour in the text output.
 */
#include <string.h>

#include "colour.h"

bool colour_wanted(bool tty, const char *no_color, const char *term,
		   bool json_or_format)
{
	if (json_or_format || !tty)
		return false;
	if (no_color && no_color[0])
		return false;
	return term && term[0] && strcmp(term, "dumb") != 0;
}
