#ifndef ROLLING_STRBUF_H
#define ROLLING_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include "error.h"

/*
 * A growable string, always NUL-terminated, for paths, ref names, keys
 * and messages of any length: no fixed buffer to truncate them.
 *
 * The library never exits, so running out of memory cannot die here.
 * Instead the failure sticks: later additions do nothing, `oom` stays
 * set, and the caller checks once, when the string is complete:
 *
 *	struct strbuf path = STRBUF_INIT;
 *
 *	strbuf_addf(&path, "%s/%s", dir, name);
 *	if (strbuf_oom(&path))
 *		return rolling_error_nomem();
 *
 * `buf` is never NULL: an empty strbuf points at a shared "".
 */
struct strbuf {
	size_t alloc;   /* 0: buf is the shared empty string */
	size_t len;
	char *buf;
	int oom;        /* an addition failed: contents are incomplete */
};

extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty, 0 }

void strbuf_release(struct strbuf *sb);

/* The string, which the caller then owns (NULL when memory ran out). */
char *strbuf_detach(struct strbuf *sb);

/* Make room for `extra` more bytes; returns 0, or -1 and sets oom. */
int strbuf_grow(struct strbuf *sb, size_t extra);

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) ROLLING_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap) ROLLING_PRINTF(2, 0);

/*
 * Append all that can be read from `fd`, to its end.  Returns 0, or -1
 * with errno set (ENOMEM when memory ran out, which also sets oom); what
 * was read before a failure stays.
 */
int strbuf_read_fd(struct strbuf *sb, int fd);

/* The same for the whole file at `path`; -1 with errno when it cannot be opened. */
int strbuf_read_file(struct strbuf *sb, const char *path);

/* Empty it, keeping the memory (and clearing oom). */
void strbuf_reset(struct strbuf *sb);

/* Cut it to `len` bytes (len <= sb->len). */
void strbuf_setlen(struct strbuf *sb, size_t len);

/*
 * One string formatted as printf formats it, of any length, for the
 * caller to free: the library's one helper for that (NULL when memory
 * ran out).
 */
char *rolling_strfmt(const char *fmt, ...) ROLLING_PRINTF(1, 2);

/* rolling_strfmt() for a function that takes its own `...`. */
char *rolling_vstrfmt(const char *fmt, va_list ap) ROLLING_PRINTF(1, 0);

/* "<dir>/<name>" with one '/' between, whether or not dir ends in one; NULL when memory ran out. */
char *rolling_path_join(const char *dir, const char *name);

/* Whether an addition failed. */
static inline int strbuf_oom(const struct strbuf *sb)
{
	return sb->oom;
}

#endif
