#ifndef ROLLING_HAZARD_H
#define ROLLING_HAZARD_H

#include <git2.h>
#include "oidmap.h"

/*
 * The details behind rolling_repo_hazards(): which objects git would
 * see differently from the stored ones that libgit2 reads.  A check
 * that must not give a wrong answer reports these instead of ignoring
 * them.  Each rule is git's own (replace-object.c, commit.c, shallow.c),
 * with the environment variables and settings that change it.
 */

/* One ref under the replace ref base, or one graft. */
struct rolling_hazard {
	char *refname;           /* the replace ref (replacements only) */
	int honoured;            /* git reads `replacement` for `oid` (replacements only) */
	git_oid oid;             /* the replaced object, or the grafted commit */
	git_oid replacement;     /* what the ref points to (replacements only) */
};

/* Where git looks for replace refs: $GIT_REPLACE_REF_BASE or "refs/replace/". */
const char *rolling_hazard_replace_base(void);

/*
 * Every ref under the replace ref base, in ref order, or none when
 * replace refs are off.  git takes the part of the name after the last
 * '/' and reads an object id from its first hex digits, ignoring what
 * follows; those are `honoured`.  The others git skips with a warning,
 * but they are listed too: nothing belongs there that a verifier can
 * ignore.  Free with rolling_hazard_free().
 */
int rolling_hazard_replacements(struct rolling_hazard **out, size_t *nr, git_repository *repo);

/*
 * The commits that the graft file ($GIT_GRAFT_FILE, else info/grafts in
 * the common directory) gives other parents, in file order, parsed as
 * git parses it: trailing white space trimmed, blank lines and lines
 * starting with '#' skipped, a commit id followed by parent ids each
 * after one white-space character; other lines are bad data git ignores.
 * No file means none.  Free with rolling_hazard_free().
 */
int rolling_hazard_grafts(struct rolling_hazard **out, size_t *nr, git_repository *repo);

void rolling_hazard_free(struct rolling_hazard *list, size_t nr);

/*
 * libgit2 1.7 and later read the graft file themselves when they open a
 * repository (info/grafts in the common directory, never $GIT_GRAFT_FILE)
 * and "shallow" (in the repository's own git directory), and refuse the
 * repository when a line is anything but object ids separated by single
 * spaces: a comment, a blank line, a tab or a CR, which git skips or
 * reads past.  This applies their rule to those two files, whichever
 * libgit2 git-rolling runs on, so that every release gives the same
 * answer.  Returns 0, or ROLLING_ERROR with a message that names the
 * file and the line.
 */
int rolling_hazard_check_graft_files(const char *gitdir, const char *commondir);

/*
 * Whether the repository is shallow as git sees it: a non-empty
 * $GIT_SHALLOW_FILE, else "shallow" in the common directory, which all
 * work trees share (libgit2 1.5 looks in a linked work tree's own git
 * directory instead).
 */
int rolling_hazard_is_shallow(git_repository *repo);

/*
 * The boundary commits of a shallow clone (the same file): git treats
 * them as having no parents.  No file means an empty map.
 */
int rolling_hazard_shallow(struct rolling_oidmap *shallow, git_repository *repo);

#endif
