#ifndef ROLLING_ERROR_H
#define ROLLING_ERROR_H

/*
 * Library functions return 0 on success and a negative value on failure,
 * after recording a message here.  Only builtin/ code turns the message
 * into "fatal: ..." and an exit code; the library never exits.
 */

#define ROLLING_ERROR      -1
#define ROLLING_ENOTFOUND  -3   /* matches GIT_ENOTFOUND on purpose */

#ifdef __GNUC__
#define ROLLING_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define ROLLING_SENTINEL __attribute__((sentinel))
#else
#define ROLLING_PRINTF(f, a)
#define ROLLING_SENTINEL
#endif

/* Record a message and return ROLLING_ERROR. */
int rolling_error(const char *fmt, ...) ROLLING_PRINTF(1, 2);

/* Record a message with a specific code and return that code. */
int rolling_error_code(int code, const char *fmt, ...) ROLLING_PRINTF(2, 3);

/*
 * Record "<what>: <libgit2's last error>" and return `code` (a libgit2
 * return value), so callers can write `return rolling_git_error(err, ...)`.
 */
int rolling_git_error(int code, const char *fmt, ...) ROLLING_PRINTF(2, 3);

/* Record "out of memory" and return ROLLING_ERROR. */
int rolling_error_nomem(void);

/* The last recorded message, never NULL; it may be of any length. */
const char *rolling_last_error(void);

/*
 * Keep the last message across calls that may record others: take it
 * (the caller owns it; NULL when there was none), then put it back with
 * rolling_error_restore(), which returns `code`.
 */
char *rolling_error_take(void);
int rolling_error_restore(int code, char *message);

/*
 * Put "<what>: " before the last recorded message, to say where it
 * happened, and return `code`: `return rolling_error_prefix(err, "%s",
 * branch)` in place of copying the message and restoring it.
 */
int rolling_error_prefix(int code, const char *fmt, ...) ROLLING_PRINTF(2, 3);

/*
 * A warning does not stop the operation: it goes at once to the handler
 * the program installed (cli/usage.c prints "warning: <message>" on
 * stderr); with none installed, warnings are dropped, since the library
 * never writes to the terminal itself.
 */
void rolling_warning(const char *fmt, ...) ROLLING_PRINTF(1, 2);
void rolling_set_warning_handler(void (*handler)(const char *message));

/*
 * Hold warnings back (1) or let them through again (0) while trying out
 * readings that may be discarded (preset detection); returns the
 * previous setting, to be restored.
 */
int rolling_warnings_hold(int hold);

#endif
