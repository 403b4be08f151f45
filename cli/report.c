#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "../lib/quote.h"

/*
 * Write s[0..len) to stderr quoted as lib/quote.h says, keeping its line
 * breaks and tabs as git's vreportf() does: a message names commit
 * subjects, tag and ref names, signer identities and configuration
 * values, and none of their bytes may act on the terminal (an ESC or CR
 * in a subject could erase the "error:" before it).  Commands quote
 * each field already; quoting is idempotent, so this pass changes only
 * what one of them missed, a library message above all.  In chunks,
 * so that stderr, which is not buffered, sees few writes.
 */
static void write_quoted(const char *s, size_t len)
{
	char chunk[1024];
	size_t at = 0, used = 0, n;

	while (at < len) {
		if (used + ROLLING_QUOTE_UNIT_MAX > sizeof(chunk)) {
			fwrite(chunk, 1, used, stderr);
			used = 0;
		}
		at += rolling_quote_unit(s + at, len - at, ROLLING_QUOTE_KEEP_LINES,
					 chunk + used, &n);
		used += n;
	}
	fwrite(chunk, 1, used, stderr);
}

/*
 * The message formatted: in `small` when it fits, else in memory of its
 * own that the caller frees (*to_free); cut to `small` when even that
 * cannot be had, since this is how "out of memory" is said.
 */
static const char *format(char *small, size_t size, char **to_free, size_t *len,
			  const char *fmt, va_list ap) ROLLING_PRINTF(5, 0);

static const char *format(char *small, size_t size, char **to_free, size_t *len,
			  const char *fmt, va_list ap)
{
	va_list again;
	int n;

	*to_free = NULL;
	va_copy(again, ap);
	n = vsnprintf(small, size, fmt, ap);
	if (n < 0)
		n = 0;
	*len = (size_t)n;
	if (*len >= size) {
		*to_free = malloc(*len + 1);
		if (*to_free)
			vsnprintf(*to_free, *len + 1, fmt, again);
		else
			*len = size - 1;
	}
	va_end(again);
	return *to_free ? *to_free : small;
}

/*
 * "<prefix>: <message>\n" on stderr, or "<prefix>: <message>: <cause>\n"
 * with a cause, after flushing stdout so that the two streams stay in
 * order on a terminal.  The one writer of every "warning:", "error:",
 * "hint:" and "fatal:" line.  It allocates nothing unless the message
 * is long, so that it can say that memory ran out.
 */
static void vreport_cause(const char *prefix, const char *fmt, va_list ap, const char *cause)
	ROLLING_PRINTF(2, 0);

static void vreport_cause(const char *prefix, const char *fmt, va_list ap, const char *cause)
{
	char small[4096], *to_free;
	size_t len;
	const char *msg = format(small, sizeof(small), &to_free, &len, fmt, ap);

	fflush(stdout);
	fprintf(stderr, "%s: ", prefix);
	write_quoted(msg, len);
	free(to_free);
	if (cause) {
		fputs(": ", stderr);
		write_quoted(cause, strlen(cause));
	}
	fputc('\n', stderr);
}

static void vreport(const char *prefix, const char *fmt, va_list ap) ROLLING_PRINTF(2, 0);

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	vreport_cause(prefix, fmt, ap, NULL);
}

static void report(const char *prefix, const char *fmt, ...) ROLLING_PRINTF(2, 3);

static void report(const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(prefix, fmt, ap);
	va_end(ap);
}

void print_warning(const char *message)
{
	report("warning", "%s", message);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal", fmt, ap);
	va_end(ap);
	exit(128);
}

void die_last_error(void)
{
	die("%s", rolling_last_error());
}

void die_error_context(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport_cause("fatal", fmt, ap, rolling_last_error());
	va_end(ap);
	exit(128);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error", fmt, ap);
	va_end(ap);
	return -1;
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("hint", fmt, ap);
	va_end(ap);
}
