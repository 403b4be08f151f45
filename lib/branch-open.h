#ifndef ROLLING_BRANCH_OPEN_H
#define ROLLING_BRANCH_OPEN_H

#include <git2.h>
#include "branch.h"
#include "preset.h"

/*
 * Open a rolling branch for reading, as the commands that inspect one
 * (describe, bisect-helper) name it.  Without patterns, `name` is a
 * configured rolling branch: rolling.<name>.* and refs/heads/<name>.
 * With both patterns, `name` is any revision at the tip of a rolling
 * branch that git rolling does not manage (one fetched from elsewhere,
 * say), read with those tag patterns.  Sets *tip to its commit.
 */
int rolling_branch_open(struct rolling_branch *b, git_oid *tip, git_repository *repo,
			const char *name, const char *release_re, const char *mainline_re);

/*
 * The tag patterns for a branch named on the command line: none (both
 * NULL: a configured branch) unless a preset or a pattern is given;
 * then both must be known, a pattern given overriding the preset's.
 */
int rolling_patterns_from_options(const char **release_re, const char **mainline_re,
				  const struct rolling_scheme_options *o);

/*
 * Resolve a revision the way the user typed it to a commit.  A short ref
 * name that git would resolve to one of several refs (a tag and a
 * remote-tracking branch of the same name, say) is an error that lists
 * them, where git would warn and take the first.
 */
int rolling_resolve_commit(git_oid *commit, git_repository *repo, const char *rev);

#endif
