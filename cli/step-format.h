#ifndef ROLLING_STEP_FORMAT_H
#define ROLLING_STEP_FORMAT_H

#include <git2.h>
#include "../lib/abbrev.h"
#include "../lib/steps.h"
#include "../lib/strbuf.h"


/* "2024-02-01": a date in the time zone it was recorded in. */
const char *rolling_format_day(char *buf, size_t size, git_time_t time, int offset);

/*
 * "2024-02-01T10:00:00+01:00", as git's %cI: a time in the time zone it
 * was recorded in; "?" when it cannot be shown.
 */
const char *rolling_format_iso_time(char *buf, size_t size, git_time_t time, int offset);

/*
 * A step as the commands show it, added to `out`: "v6.6.4 (merge
 * 1a2b3c4, 2024-02-01)", or "v6.6.1 (base 1a2b3c4, 2024-01-01)" for the
 * release the branch was created at.  The release's name is whole,
 * however long the tag's name is.
 */
void rolling_step_format(struct strbuf *out, git_repository *repo,
			 const struct rolling_step *step);

#endif
