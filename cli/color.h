#ifndef ROLLING_COLOR_H
#define ROLLING_COLOR_H

#include <git2.h>

#define ROLLING_COLOR_RESET  "\033[m"
#define ROLLING_COLOR_GREEN  "\033[32m"
#define ROLLING_COLOR_RED    "\033[31m"
#define ROLLING_COLOR_YELLOW "\033[33m"
#define ROLLING_COLOR_BOLD   "\033[1m"

/*
 * Whether to color standard output, as git decides for its own commands:
 * color.rolling, else color.ui ("auto" by default); "auto" (and "true")
 * color only a terminal that is not "dumb"; "always" and "never" mean
 * what they say.  A value git would not accept is an error.
 */
int rolling_want_color(int *want, git_repository *repo);

/* `color` around `text` when `want`, else the text alone; never NULL. */
const char *rolling_colored(char *buf, size_t size, int want, const char *color,
			    const char *text);

#endif
