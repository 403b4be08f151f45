#ifndef ROLLING_SETUP_H
#define ROLLING_SETUP_H

#include "about.h"

/*
 * Start libgit2 the way every git-rolling command wants it.  Returns 0
 * or a negative error.
 */
int rolling_setup(void);

void rolling_teardown(void);

/*
 * The main() of every command: answer `--version`, else set up libgit2,
 * run `cmd`, shut down.  Only builtin/ code uses it, since it dies when
 * set-up fails.
 */
#define ROLLING_MAIN(cmd) \
	int main(int argc, const char **argv) \
	{ \
		int ret; \
		if (rolling_version_option(argc, argv)) \
			return 0; \
		if (rolling_setup() < 0) \
			die_last_error(); \
		ret = cmd(argc, argv); \
		rolling_teardown(); \
		return ret; \
	}

#endif
