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

struct strbuf;

/*
 * What else the short ref name `name` already means, by git's rules
 * (what rolling_resolve_commit() would call ambiguous): each full ref
 * name it resolves to but by the rule whose prefix is `except` (such as
 * "refs/heads/"), added to `list` as "a, b", counted in *found.  Returns
 * 0 or a negative error.
 */
int rolling_ref_other_meanings(struct strbuf *list, size_t *found, git_repository *repo,
			       const char *name, const char *except);

#endif
