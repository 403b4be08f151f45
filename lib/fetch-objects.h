#ifndef ROLLING_FETCH_OBJECTS_H
#define ROLLING_FETCH_OBJECTS_H

#include <git2.h>
#include "fetch-view.h"
#include "quarantine.h"

/* An object to fetch, and the server's ref that advertised it. */
struct rolling_fetch_want {
	const char *refname;      /* "refs/heads/...", "refs/tags/..."; borrowed */
	const git_oid *oid;       /* borrowed */
};

/*
 * `git fetch` of exactly these objects from `remote`, writing into the
 * quarantine `q` only: no ref, no FETCH_HEAD, no tag following, no gc
 * (`--refmap=` and object ids as the refspecs: nothing has a
 * destination).  With `view` (rolling_fetch_view_create()), git
 * runs in that view of the repository, else in the repository itself.
 * git's progress and messages go to the terminal (`quiet`: only its
 * errors).  Returns 0, or a negative error when git could not be run or
 * failed ("... nothing was updated").
 */
int rolling_fetch_objects(const struct rolling_quarantine *q, const struct rolling_fetch_view *view,
			  const char *remote, const struct rolling_fetch_want *wants, size_t nr,
			  int quiet);

#endif
