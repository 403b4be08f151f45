#ifndef ROLLING_REPO_H
#define ROLLING_REPO_H

#include <git2.h>

/*
 * Open the repository the way git does for a command run in it: from
 * the current directory upwards, with git's environment as
 * rolling_repo_open_env() (repo-open.h) reads it, and with the settings
 * of `git -c`.  A graft or shallow file that libgit2 1.7 and later
 * cannot read is refused with every release
 * (rolling_hazard_check_graft_files()).
 */
int rolling_repo_open(git_repository **repo);

/*
 * Free a repository opened by rolling_repo_open() or
 * rolling_repo_open_env(), with what its open recorded of it (the ref
 * format, refs.h); NULL does nothing.  git_repository_free() alone would
 * leave that record to a repository that libgit2 later allocates at the
 * same address.
 */
void rolling_repo_free(git_repository *repo);

/*
 * libgit2 ignores refs/replace/ while git honours it, and grafts before
 * 1.7 (from 1.7 it reads info/grafts, but never $GIT_GRAFT_FILE), and a
 * shallow clone cuts history; in each case the two can see different
 * graphs.  Sets bits of enum rolling_repo_hazard in *hazards.
 */
enum rolling_repo_hazard {
	ROLLING_HAZARD_REPLACE = 1 << 0,
	ROLLING_HAZARD_GRAFTS = 1 << 1,
	ROLLING_HAZARD_SHALLOW = 1 << 2,
};

int rolling_repo_hazards(unsigned *hazards, git_repository *repo);

/*
 * The names the reports give the hazards ("replace", "grafts",
 * "shallow"), one table for every format: takes the lowest bit out of
 * *hazards and returns its name, or NULL when no known bit is left, so
 * that
 *
 *	while ((name = rolling_repo_hazard_next(&left)))
 *
 * lists them always in the same order.
 */
const char *rolling_repo_hazard_next(unsigned *hazards);

/*
 * Warn about replacements and grafts: commands that build on stored
 * objects are right regardless, but the user should know that git will
 * show them a different history.
 */
int rolling_repo_warn_hazards(git_repository *repo);

#endif
