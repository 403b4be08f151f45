#ifndef ROLLING_REVISION_H
#define ROLLING_REVISION_H

#include <git2.h>

/*
 * Resolve a revision the way the user typed it to a commit.  A short ref
 * name that git would resolve to one of several refs (a tag and a
 * remote-tracking branch of the same name, say) is an error that lists
 * them, where git would warn and take the first.
 */
int rolling_resolve_commit(git_oid *commit, git_repository *repo, const char *rev);

#endif
