#ifndef ROLLING_UTF8_H
#define ROLLING_UTF8_H

#include <stddef.h>

/*
 * Commit messages and ref names are bytes: git does not require UTF-8
 * (a Latin-1 subject is common in old history).  These keep text that
 * is cut or handed to a UTF-8-only format (JSON) well formed.
 */

/*
 * The length of the well-formed UTF-8 sequence at the start of
 * s[0..avail) (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF), with its code point in *code_point; 0 when the bytes there
 * are not one (*code_point is then left alone).
 */
size_t rolling_utf8_decode(const char *s, size_t avail, unsigned long *code_point);

/*
 * The length of the longest prefix of s[0..len) of at most `max` bytes
 * that does not end inside a UTF-8 sequence.  Bytes that are not UTF-8
 * count as characters of their own, so they may be cut anywhere.
 */
size_t rolling_utf8_cut(const char *s, size_t len, size_t max);

/*
 * A copy of the NUL-terminated `s` that is valid UTF-8: each byte that
 * does not start a well-formed sequence (overlong, surrogate, above
 * U+10FFFF, truncated) becomes U+FFFD.  Returns NULL when out of memory;
 * the caller frees the copy.
 */
char *rolling_utf8_sanitize(const char *s);

/*
 * `s` converted from `encoding` (a commit's "encoding" header, as git
 * log converts it) to UTF-8, or NULL when that cannot be done (unknown
 * encoding, bytes invalid in it, out of memory).  The caller frees it.
 */
char *rolling_utf8_reencode(const char *s, const char *encoding);

#endif
