#ifndef ROLLING_QUOTE_H
#define ROLLING_QUOTE_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Repository text quoted for a line a person reads on a terminal.
 *
 * Commit subjects, tag names and messages, ref names, signer identities
 * and configuration values are bytes that whoever published the
 * repository chose.  Printed raw, some of them are commands to the
 * terminal: ESC starts a sequence that can move the cursor and erase a
 * line, CR returns to the start of the line so that what follows
 * overwrites the "error:" before it, backspace erases, BEL rings, and
 * the Unicode bidi overrides and isolates reorder what is shown, so that
 * a line reads differently from the bytes it holds.  git's own error
 * printer (usage.c, vreportf) rewrites every control character but tab
 * and newline of a message to '?' for the same reason.
 *
 * The rendering, one for every human-readable line of git rolling, is
 * the escapes of git's quote_c_style (what `git status` shows for an
 * unusual path), which say what byte was there where '?' would hide it:
 *
 *  - BEL, BS, HT, LF, VT, FF and CR are \a \b \t \n \v \f \r;
 *  - every other C0 control (NUL and ESC included: ESC is \033) and DEL
 *    is a backslash and three octal digits;
 *  - a byte that does not start a well-formed UTF-8 sequence (see
 *    utf8.h) is its own three-digit octal escape, as git shows the
 *    bytes of a path that is not UTF-8;
 *  - a well-formed sequence for a character that is invisible and acts
 *    on the display is each of its bytes in octal (U+202E is
 *    \342\200\256): the C1 controls U+0080..U+009F (some terminals take
 *    U+009B as CSI), the bidi marks, embeddings, overrides and isolates
 *    (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), the line
 *    and paragraph separators U+2028 and U+2029, and the invisible
 *    format characters U+200B, U+2060..U+2064, U+206A..U+206F, U+FEFF
 *    and U+FFF9..U+FFFB.  ZWNJ and ZWJ (U+200C, U+200D) pass: ordinary
 *    Persian and Indic text and emoji need them, and they reorder
 *    nothing;
 *  - everything else, backslash and double quote included, is itself.
 *
 * Leaving the backslash alone makes the quoting idempotent: text already
 * quoted holds no byte the rules change.  So the error printer can quote
 * a whole message as a last line of defence (cli/report.c) after a
 * command quoted its fields, without doubling anything, and a subject
 * such as 'Revert "x"' or a path with a backslash reads as it is.  The
 * price is that a literal "\033" typed into a subject looks like an
 * escaped ESC; like git's '?', that hides nothing.  --json output needs
 * none of this: it is exact, and the JSON writer escapes it.
 */

/* Let line breaks and tabs through: a whole message whose layout is its own. */
#define ROLLING_QUOTE_KEEP_LINES 1

/* The most bytes one unit of input can become: four bytes as \ooo each. */
#define ROLLING_QUOTE_UNIT_MAX 16

/*
 * Quote the first unit (a byte, or one UTF-8 sequence) of s[0..len),
 * len > 0: its rendering goes to out (not NUL-terminated), its length
 * to *out_len.  Returns how many bytes of s it consumed (at least 1).
 * For writers that may not allocate, such as the error printer.
 */
size_t rolling_quote_unit(const char *s, size_t len, unsigned flags,
			  char out[ROLLING_QUOTE_UNIT_MAX], size_t *out_len);

/* Whether quoting s[0..len) would change anything. */
int rolling_quote_needed(const char *s, size_t len, unsigned flags);

/* Append s[0..len) quoted; memory failures stick in sb as strbuf's do. */
void rolling_quote_text(struct strbuf *sb, const char *s, size_t len, unsigned flags);

/* Append the NUL-terminated s quoted as one line (no flags). */
void rolling_quote_line(struct strbuf *sb, const char *s);

/*
 * The other way, for text git quoted for the shell: read one
 * single-quoted word at p, where a quote inside the word is '\'' (as
 * git's sq_quote_buf() writes it, for GIT_CONFIG_PARAMETERS).  *out is
 * the word (the caller frees it, also on failure).  Returns the position
 * after the word, or NULL when the text is malformed or memory ran out.
 */
const char *rolling_sq_dequote_word(char **out, const char *p);

#endif
