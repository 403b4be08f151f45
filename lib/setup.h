#ifndef ROLLING_SETUP_H
#define ROLLING_SETUP_H

/*
 * Start libgit2 the way every git-rolling command wants it: among other
 * things, with its check of a repository's owner off for the process,
 * since git-rolling makes git's (repo-owner.h).  Returns 0 or a
 * negative error.
 */
int rolling_setup(void);

void rolling_teardown(void);

#endif
