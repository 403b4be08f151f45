#ifndef ROLLING_MAINLINE_H
#define ROLLING_MAINLINE_H

#include <git2.h>
#include "pattern.h"
#include "oidmap.h"

/*
 * The commits that mainline tags (release candidates and finals) point
 * to, by commit: where a stable series forks off, and names for merge
 * bases.  struct rolling_tags only counts mainline tags; this reads them
 * when a command needs their commits.
 */
struct rolling_mainline {
	char **names;
	size_t nr;
	struct rolling_oidmap by_commit;    /* commit -> index into names */
};

int rolling_mainline_load(struct rolling_mainline *m, git_repository *repo,
			  struct rolling_patterns *patterns);

/* The mainline tag on this commit, or NULL. */
const char *rolling_mainline_find(const struct rolling_mainline *m, const git_oid *commit);

void rolling_mainline_release(struct rolling_mainline *m);

#endif
