#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "git2-compat.h"
#include "error.h"

/*
 * The message grows as needed: a list of files and the closing "nothing
 * was changed" must never be cut.  Each thread has its own, as libgit2's
 * error is: a push log's epochs are walked on worker threads
 * (push-log.c), which hand their message over with rolling_error_take().
 */
static _Thread_local char *last_error;

static void set_message(char *message)
{
	free(last_error);
	last_error = message;
}

/*
 * The formatter of this file, NULL when memory ran out.  Not the
 * library's rolling_vstrfmt(): strbuf.h and alloc.h stand above this
 * file (they include error.h, and ALLOC_GROW() records
 * rolling_error_nomem()), and using strbuf.h here would make the two use
 * each other (t0202).  t0201 allows vasprintf() here and in strbuf.c.
 */
static char *format(const char *fmt, va_list ap) ROLLING_PRINTF(1, 0);

static char *format(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

static void record(const char *fmt, va_list ap) ROLLING_PRINTF(1, 0);

static void record(const char *fmt, va_list ap)
{
	set_message(format(fmt, ap));
}

int rolling_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(fmt, ap);
	va_end(ap);
	return ROLLING_ERROR;
}

int rolling_error_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(fmt, ap);
	va_end(ap);
	return code;
}

/* Record "<what>: <reason>", `what` formatted from fmt. */
static void record_with_reason(const char *reason, const char *fmt, va_list ap)
	ROLLING_PRINTF(2, 0);

static void record_with_reason(const char *reason, const char *fmt, va_list ap)
{
	char *what = format(fmt, ap);
	size_t size = what ? strlen(what) + strlen(": ") + strlen(reason) + 1 : 0;
	char *message = size ? malloc(size) : NULL;

	if (message)
		snprintf(message, size, "%s: %s", what, reason);
	free(what);
	set_message(message);
}

int rolling_git_error(int code, const char *fmt, ...)
{
	const char *reason = rolling_git_error_message();
	va_list ap;

	va_start(ap, fmt);
	record_with_reason(reason ? reason : "unknown libgit2 error", fmt, ap);
	va_end(ap);
	return code < 0 ? code : ROLLING_ERROR;
}

int rolling_error_nomem(void)
{
	return rolling_error("out of memory");
}

const char *rolling_last_error(void)
{
	return last_error ? last_error : "unknown error";
}

char *rolling_error_take(void)
{
	char *message = last_error;

	last_error = NULL;
	return message;
}

int rolling_error_restore(int code, char *message)
{
	set_message(message);
	return code;
}

int rolling_error_prefix(int code, const char *fmt, ...)
{
	va_list ap;

	/* The new message is made before the last one is freed. */
	va_start(ap, fmt);
	record_with_reason(rolling_last_error(), fmt, ap);
	va_end(ap);
	return code;
}

static void (*warning_handler)(const char *message);
static int warnings_held;

void rolling_set_warning_handler(void (*handler)(const char *message))
{
	warning_handler = handler;
}

int rolling_warnings_hold(int hold)
{
	int was = warnings_held;

	warnings_held = hold;
	return was;
}

void rolling_warning(const char *fmt, ...)
{
	char *message;
	va_list ap;

	if (warnings_held || !warning_handler)
		return;
	va_start(ap, fmt);
	message = format(fmt, ap);
	va_end(ap);
	warning_handler(message ? message : "(out of memory formatting a warning)");
	free(message);
}
