#ifndef ROLLING_BISECT_STATE_H
#define ROLLING_BISECT_STATE_H

#include <git2.h>

/*
 * What `git rolling bisect-helper` remembers between its invocations
 * while git keeps the bisection itself: a small "key value" file in the
 * git directory ($GIT_DIR/ROLLING_BISECT), written by `start`, updated
 * by `next` and removed when the bisection is over or reset.
 */
struct rolling_bisect_state {
	int stage;                 /* 1: which step, 2: which commit */
	char *branch;              /* as given to start, for messages and reopening */
	char *release_pattern;     /* both NULL for a configured branch */
	char *mainline_pattern;
	git_oid good, bad;         /* the steps stage one started from */
	git_oid first_bad_step;    /* stage 2: the step stage one found */
};

/* Returns ROLLING_ENOTFOUND when there is no state file. */
int rolling_bisect_state_read(struct rolling_bisect_state *s, const char *path);

/* Replace the file atomically (write a temporary file, rename it). */
int rolling_bisect_state_write(const struct rolling_bisect_state *s, const char *path);

/* Remove the file; a missing file is not an error. */
int rolling_bisect_state_remove(const char *path);

void rolling_bisect_state_release(struct rolling_bisect_state *s);

#endif
