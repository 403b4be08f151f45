#include <stdlib.h>
#include <string.h>
#include "quote.h"
#include "utf8.h"

/* Whether a well-formed character is invisible and acts on the display. */
static int is_display_control(unsigned long c)
{
	return (c >= 0x80 && c <= 0x9f) ||
		c == 0x061c || c == 0x200b || c == 0x200e || c == 0x200f ||
		(c >= 0x2028 && c <= 0x202e) ||
		(c >= 0x2060 && c <= 0x2064) ||
		(c >= 0x2066 && c <= 0x206f) ||
		c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb);
}

static size_t octal(char *out, unsigned char c)
{
	out[0] = '\\';
	out[1] = (char)('0' + (c >> 6));
	out[2] = (char)('0' + ((c >> 3) & 7));
	out[3] = (char)('0' + (c & 7));
	return 4;
}

/* The escape of an ASCII control character, or 0 for a plain one. */
static size_t control(char *out, unsigned char c, unsigned flags)
{
	static const char letters[] = "abtnvfr";   /* 7 .. 13 */

	if (c >= 0x20 && c != 0x7f)
		return 0;
	if ((flags & ROLLING_QUOTE_KEEP_LINES) && (c == '\n' || c == '\t'))
		return 0;
	if (c >= 7 && c <= 13) {
		out[0] = '\\';
		out[1] = letters[c - 7];
		return 2;
	}
	return octal(out, c);
}

size_t rolling_quote_unit(const char *s, size_t len, unsigned flags,
			  char out[ROLLING_QUOTE_UNIT_MAX], size_t *out_len)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c;
	size_t n, i;

	if (u[0] < 0x80) {
		*out_len = control(out, u[0], flags);
		if (!*out_len) {
			out[0] = s[0];
			*out_len = 1;
		}
		return 1;
	}
	n = rolling_utf8_decode(s, len, &c);
	if (!n) {
		*out_len = octal(out, u[0]);
		return 1;
	}
	*out_len = 0;
	for (i = 0; i < n; i++) {
		if (is_display_control(c))
			*out_len += octal(out + *out_len, u[i]);
		else
			out[(*out_len)++] = s[i];
	}
	return n;
}

int rolling_quote_needed(const char *s, size_t len, unsigned flags)
{
	char unit[ROLLING_QUOTE_UNIT_MAX];
	size_t at = 0, n, out_len;

	while (at < len) {
		n = rolling_quote_unit(s + at, len - at, flags, unit, &out_len);
		if (out_len != n || memcmp(unit, s + at, n))
			return 1;
		at += n;
	}
	return 0;
}

void rolling_quote_text(struct strbuf *sb, const char *s, size_t len, unsigned flags)
{
	char unit[ROLLING_QUOTE_UNIT_MAX];
	size_t at = 0, out_len;

	while (at < len) {
		at += rolling_quote_unit(s + at, len - at, flags, unit, &out_len);
		strbuf_add(sb, unit, out_len);
	}
}

void rolling_quote_line(struct strbuf *sb, const char *s)
{
	rolling_quote_text(sb, s, strlen(s), 0);
}

const char *rolling_sq_dequote_word(char **out, const char *p)
{
	size_t len = 0;
	char *word = malloc(strlen(p) + 1);

	*out = word;
	if (!word || *p != '\'')
		return NULL;
	for (p++;;) {
		if (!*p)
			return NULL;
		if (*p != '\'') {
			word[len++] = *p++;
			continue;
		}
		if (p[1] == '\\' && p[2] == '\'' && p[3] == '\'') {
			word[len++] = '\'';
			p += 4;
			continue;
		}
		word[len] = '\0';
		return p + 1;
	}
}
