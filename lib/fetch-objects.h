#ifndef ROLLING_FETCH_OBJECTS_H
#define ROLLING_FETCH_OBJECTS_H

#include <git2.h>
#include "fetch-view.h"
#include "quarantine.h"

/*
 * The one connection of a fetch: `git fetch` from `remote` of its
 * branches `remote_refs` ("refs/heads/<b>"), each into its ref of the
 * view (rolling_fetch_view_ref()), with git's tag following, run in the
 * view (fetch-view.h): the objects go into the quarantine `q`, the refs
 * into the view, nothing into the repository.  Every branch must be on
 * the server (git says which is not).  git's errors go to standard
 * error, and its progress with `progress` (the caller's terminal wants
 * it); the refs it writes are not listed.  Returns 0, or a negative
 * error when git could not be run or failed ("... nothing was updated").
 */
int rolling_fetch_objects(const struct rolling_quarantine *q, const struct rolling_fetch_view *view,
			  const char *remote, const char *const *remote_refs, size_t nr,
			  int progress);

#endif
