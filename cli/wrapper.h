#ifndef ROLLING_WRAPPER_H
#define ROLLING_WRAPPER_H

#include <stddef.h>
#include "../lib/alloc.h"
#include "../lib/error.h"
#include "../lib/strbuf.h"

/*
 * Allocation for the commands: on failure they die with "fatal: out of
 * memory", as git's xmalloc() does, so a command never carries its own
 * "out of memory" branch.  The library keeps returning errors.
 */
void *xcalloc(size_t nmemb, size_t size);
/* realloc() of nmemb * size bytes, dying when that overflows. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* xstrdup(), or NULL for NULL. */
char *xstrdup_or_null(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) ROLLING_PRINTF(1, 2);

/* The string of a complete strbuf, dying if an addition ran out of memory. */
const char *xstrbuf(const struct strbuf *sb);

/*
 * Grow `array` (with `alloc` slots) to hold at least `nr` elements,
 * by half again each time, dying when memory runs out.
 */
#define XALLOC_GROW(array, nr, alloc) \
	do { \
		if ((nr) > (alloc)) { \
			(alloc) = rolling_alloc_nr((alloc), (nr)); \
			(array) = xreallocarray((array), (alloc), sizeof(*(array))); \
		} \
	} while (0)

#endif
