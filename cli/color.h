#ifndef ROLLING_COLOR_H
#define ROLLING_COLOR_H

#include <git2.h>
#include "../lib/error.h"

#define ROLLING_COLOR_RESET  "\033[m"
#define ROLLING_COLOR_GREEN  "\033[32m"
#define ROLLING_COLOR_RED    "\033[31m"
#define ROLLING_COLOR_YELLOW "\033[33m"

/*
 * Whether to color standard output, as git decides for its own commands:
 * color.rolling, else color.ui ("auto" by default); "auto" (and "true")
 * color only a terminal that is not "dumb"; "always" and "never" mean
 * what they say.  A value git would not accept is an error.
 */
int rolling_want_color(int *want, git_repository *repo);

/*
 * printf() on standard output, in `color` when `want` (as git's
 * color_fprintf()), else plain; returns what printf() returns.
 */
int rolling_color_printf(int want, const char *color, const char *fmt, ...)
	ROLLING_PRINTF(3, 4);

#endif
