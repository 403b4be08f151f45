#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "text.h"
#include "report.h"
#include "../lib/quote.h"

const char *qtext(const char *s)
{
	static struct strbuf ring[QTEXT_RING];
	static size_t next;
	struct strbuf *sb;
	size_t len;

	if (!s)
		return "";
	len = strlen(s);
	if (!rolling_quote_needed(s, len, 0))
		return s;
	sb = &ring[next];
	next = (next + 1) % QTEXT_RING;
	strbuf_reset(sb);
	rolling_quote_text(sb, s, len, 0);
	if (strbuf_oom(sb))
		die("out of memory");
	return sb->buf;
}

void qvprintf(const char *fmt, va_list ap)
{
	struct strbuf formatted = STRBUF_INIT, quoted = STRBUF_INIT;

	strbuf_vaddf(&formatted, fmt, ap);
	if (strbuf_oom(&formatted))
		die("out of memory");
	rolling_quote_text(&quoted, formatted.buf, formatted.len, ROLLING_QUOTE_KEEP_LINES);
	strbuf_release(&formatted);
	if (strbuf_oom(&quoted))
		die("out of memory");
	fwrite(quoted.buf, 1, quoted.len, stdout);
	strbuf_release(&quoted);
}

void terminal_reset_after_child(void)
{
	static const char sgr_reset[] = "\033[m";

	fflush(stdout);
	if (isatty(1))
		fputs(sgr_reset, stdout), fflush(stdout);
	if (isatty(2))
		fputs(sgr_reset, stderr);
}
