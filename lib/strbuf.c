#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "strbuf.h"
#include "alloc.h"

char strbuf_empty[1];

static void strbuf_init(struct strbuf *sb)
{
	struct strbuf empty = STRBUF_INIT;

	*sb = empty;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->oom ? NULL : sb->alloc ? sb->buf : strdup("");

	if (sb->oom || !sb->alloc)
		strbuf_release(sb);
	else
		strbuf_init(sb);
	return s;
}

int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;
	char *buf;

	if (sb->oom)
		return -1;
	if (extra >= (size_t)-1 - sb->len) {
		sb->oom = 1;
		return -1;
	}
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;
	want = rolling_alloc_nr(sb->alloc, want);
	if (!(buf = realloc(sb->alloc ? sb->buf : NULL, want))) {
		sb->oom = 1;
		return -1;
	}
	if (!sb->alloc)
		buf[0] = '\0';
	sb->buf = buf;
	sb->alloc = want;
	return 0;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (strbuf_grow(sb, len) < 0)
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int len;

	if (sb->oom)
		return;         /* sticky: the room left must not take text either */
	/* Try the room there is, then grow to the exact size once. */
	va_copy(again, ap);
	len = vsnprintf(sb->alloc ? sb->buf + sb->len : NULL,
			sb->alloc ? sb->alloc - sb->len : 0, fmt, ap);
	if (len < 0)
		sb->oom = 1;
	else if (sb->alloc && (size_t)len < sb->alloc - sb->len)
		sb->len += (size_t)len;
	else if (strbuf_grow(sb, (size_t)len) == 0) {
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, again);
		sb->len += (size_t)len;
	}
	va_end(again);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* Read in pieces of at least this much room. */
#define READ_CHUNK 8192

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	for (;;) {
		ssize_t n;

		if (strbuf_grow(sb, READ_CHUNK) < 0) {
			errno = ENOMEM;
			return -1;
		}
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret, saved;

	if (fd < 0)
		return -1;
	ret = strbuf_read_fd(sb, fd);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->oom = 0;
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

/*
 * The one call of vasprintf() outside lib/error.c (t0201 checks it):
 * its result is undefined on failure, which every caller would have to
 * know; here it becomes NULL.
 */
char *rolling_vstrfmt(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

char *rolling_strfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = rolling_vstrfmt(fmt, ap);
	va_end(ap);
	return s;
}

char *rolling_path_join(const char *dir, const char *name)
{
	size_t len = strlen(dir);

	return rolling_strfmt("%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
}
