#ifndef ROLLING_SETUP_H
#define ROLLING_SETUP_H

/*
 * Start libgit2 the way every git-rolling command wants it.  Returns 0
 * or a negative error.
 */
int rolling_setup(void);

void rolling_teardown(void);

#endif
