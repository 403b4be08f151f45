#ifndef ROLLING_TEXT_H
#define ROLLING_TEXT_H

/*
 * Repository text for a human-readable line of output, quoted as
 * lib/quote.h says: qtext(name) where a printf would take name, for
 * every commit subject, tag or ref name, signer identity and
 * configuration value that reaches stdout.  (The "fatal:", "error:",
 * "warning:" and "hint:" lines are quoted whole by cli/report.c
 * anyway.)  --json output never goes through it.
 *
 * Returns s itself when it needs no quoting; otherwise a quoted copy
 * that stays valid until QTEXT_RING more calls, so that one printf can
 * take several.  Dies when memory runs out; NULL gives "(null)"-free "".
 */
#include <stdarg.h>
#include "../lib/error.h"

#define QTEXT_RING 8

const char *qtext(const char *s);

/*
 * printf() to stdout with the whole formatted text quoted, its own line
 * breaks and tabs kept: for a writer whose every line is made of
 * repository text, such as describe's.
 */
void qvprintf(const char *fmt, va_list ap) ROLLING_PRINTF(1, 0);

/*
 * After a child whose output reached the terminal raw (git fetch
 * relaying a server's "remote:" text, git bisect relaying a commit
 * subject): put back the terminal's character attributes (SGR 0) on
 * stdout and on stderr where each is a terminal, so that nothing the
 * child left set (ESC[8m conceals, a foreground the colour of the
 * background) hides git rolling's own lines and verdict after it.
 */
void terminal_reset_after_child(void);

#endif
