#include <stdarg.h>
#include <stdio.h>
#include <git2.h>
#include "error.h"

static char last_error[1024] = "unknown error";

static void record(const char *fmt, va_list ap) ROLLING_PRINTF(1, 0);

static void record(const char *fmt, va_list ap)
{
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
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

int rolling_git_error(int code, const char *fmt, ...)
{
	const git_error *git_err = git_error_last();
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(last_error, sizeof(last_error), "%s: %s", what,
		 git_err && git_err->message ? git_err->message : "unknown libgit2 error");
	return code < 0 ? code : ROLLING_ERROR;
}

const char *rolling_last_error(void)
{
	return last_error;
}

void rolling_vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static int warnings_held;

int rolling_warnings_hold(int hold)
{
	int was = warnings_held;

	warnings_held = hold;
	return was;
}

void rolling_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!warnings_held)
		rolling_vreport("warning", fmt, ap);
	va_end(ap);
}
