#ifndef ROLLING_USAGE_H
#define ROLLING_USAGE_H

/*
 * Reporting for the commands in builtin/.  These and the x* allocators
 * (wrapper.h) are the only functions that exit; lib/ returns errors to
 * its caller.
 */
#include "../lib/error.h"
#include "parse-options.h"

/* "fatal: <msg>" on stderr, exit 128. */
void die(const char *fmt, ...) ROLLING_PRINTF(1, 2) __attribute__((noreturn));

/* die() with the library's last error message. */
void die_last_error(void) __attribute__((noreturn));

/* die() with "<context>: " before the library's last error message. */
void die_error_context(const char *fmt, ...) ROLLING_PRINTF(1, 2) __attribute__((noreturn));

/* "error: <msg>" on stderr; returns -1. */
int error(const char *fmt, ...) ROLLING_PRINTF(1, 2);

/* "hint: <msg>" on stderr, as git gives advice. */
void hint(const char *fmt, ...) ROLLING_PRINTF(1, 2);

/* "warning: <message>" on stderr: the library's warning handler. */
void print_warning(const char *message);

/* Usage on stderr and exit 129, like git's usage_with_options(). */
void usage_with_options(const char *const *usage, const struct rolling_option *options)
	__attribute__((noreturn));

/*
 * Parse the command line, or handle -h (usage on stdout, exit 129),
 * --help (the manual page through `git help`) and mistakes (error and
 * usage, exit 129).  `command` is "init", "advance", ...
 */
int parse_options_or_usage(int argc, const char **argv, const char *command,
			   const struct rolling_option *options, const char *const *usage);

#endif
