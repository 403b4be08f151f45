#ifndef ROLLING_REPORT_H
#define ROLLING_REPORT_H

/*
 * The one writer of every "fatal:", "error:", "warning:" and "hint:"
 * line of the commands.  It sits below everything else in cli/: it
 * allocates nothing and calls nothing of cli/, so that the allocation
 * wrappers (wrapper.h) can die through it when memory runs out, and the
 * usage printer (usage.h) above them can use both.  These, the x*
 * allocators and usage.h are the only functions that exit; lib/ returns
 * errors to its caller.
 */
#include "../lib/error.h"

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

#endif
