#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wrapper.h"
#include "report.h"

static void *checked(void *ptr)
{
	if (!ptr)
		die("out of memory");
	return ptr;
}

void *xcalloc(size_t nmemb, size_t size)
{
	return checked(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		die("out of memory: %zu elements of %zu bytes", nmemb, size);
	return checked(realloc(ptr, nmemb && size ? nmemb * size : 1));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	char *s;
	va_list ap;

	va_start(ap, fmt);
	s = rolling_vstrfmt(fmt, ap);
	va_end(ap);
	return checked(s);
}

const char *xstrbuf(const struct strbuf *sb)
{
	if (strbuf_oom(sb))
		die("out of memory");
	return sb->buf;
}
