#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "utf8.h"

#define REPLACEMENT "\xef\xbf\xbd"   /* U+FFFD */

/*
 * The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0.
 */
static size_t sequence_len(const unsigned char *s, size_t avail)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (avail < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

size_t rolling_utf8_decode(const char *s, size_t avail, unsigned long *code_point)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = avail ? sequence_len(u, avail) : 0, i;
	unsigned long cp;

	if (!len)
		return 0;
	cp = len == 1 ? u[0] : u[0] & (0x7f >> len);
	for (i = 1; i < len; i++)
		cp = (cp << 6) | (u[i] & 0x3f);
	*code_point = cp;
	return len;
}

size_t rolling_utf8_cut(const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t at = 0;

	if (len <= max)
		return len;
	while (at < max) {
		size_t n = sequence_len(u + at, len - at);

		if (!n)
			n = 1;
		if (at + n > max)
			break;
		at += n;
	}
	return at;
}

char *rolling_utf8_sanitize(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), at = 0, out_len = 0;
	char *out = malloc(len * 3 + 1);

	if (!out)
		return NULL;
	while (at < len) {
		size_t n = sequence_len(u + at, len - at);

		if (n) {
			memcpy(out + out_len, s + at, n);
			out_len += n;
			at += n;
			continue;
		}
		memcpy(out + out_len, REPLACEMENT, 3);
		out_len += 3;
		at++;
	}
	out[out_len] = '\0';
	return out;
}

char *rolling_utf8_reencode(const char *s, const char *encoding)
{
	size_t in_left = strlen(s), out_left = in_left * 4 + 1;
	/* iconv() takes char ** for the input it only reads. */
	char *out = malloc(out_left), *in = (char *)(uintptr_t)s, *at = out;
	iconv_t cd = iconv_open("UTF-8", encoding);

	if (cd == (iconv_t)-1 || !out ||
	    iconv(cd, &in, &in_left, &at, &out_left) == (size_t)-1 || in_left) {
		free(out);
		out = NULL;
	} else {
		*at = '\0';
	}
	if (cd != (iconv_t)-1)
		iconv_close(cd);
	return out;
}
