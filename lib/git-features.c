#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "git-features.h"
#include "error.h"
#include "run-command.h"
#include "path.h"

/* --- bisect --first-parent: git 2.29 ------------------------------------ */

#define FIRST_PARENT_MAJOR 2
#define FIRST_PARENT_MINOR 29

int rolling_git_bisects_first_parent(void)
{
	static const char *const args[] = { "version", NULL };
	unsigned major, minor;
	char *line;
	int err;

	if ((err = rolling_git_output(&line, args)) < 0)
		return err;
	if (sscanf(line, "git version %u.%u", &major, &minor) != 2)
		err = rolling_error("cannot tell the version of git from '%s'", line);
	else if (major < FIRST_PARENT_MAJOR ||
		 (major == FIRST_PARENT_MAJOR && minor < FIRST_PARENT_MINOR))
		err = rolling_error("git %d.%d or later is needed for first-parent bisection"
				    " (this is %s)", FIRST_PARENT_MAJOR, FIRST_PARENT_MINOR,
				    line + strlen("git version "));
	free(line);
	return err;
}

/* --- bisect from a subdirectory: git 2.40 ------------------------------- */

/*
 * git-bisect.sh (git 2.39 and older) is a script that git-sh-setup stops
 * in a subdirectory before it reads its arguments; the builtin of git
 * 2.40 sets up the repository, as every builtin, from anywhere in the
 * work tree.  `git bisect help` changes nothing in any of them: 2.39
 * prints its usage and exits 0 at the top, 1 with its refusal below;
 * the builtin exits with one status wherever it runs (1 in 2.47, 129
 * in 2.55, after 2.52 fixed how it answers "help").  So its exit status
 * here and at the top tells whether git treats this directory as it
 * treats the top, whatever the status is.
 */
int rolling_git_bisects_here(const char *top)
{
	static const char *const here_args[] = { "bisect", "help", NULL };
	const char *top_args[] = { "-C", top, "bisect", "help", NULL };
	char *said = NULL;
	const char *refusal;
	int here, there, err = 0;

	if (rolling_same_dir(top, "."))
		return 0;
	here = rolling_run_git(here_args, &said, ROLLING_RUN_CAPTURE | ROLLING_RUN_STDERR_TO_STDOUT);
	if (here < 0) {
		free(said);
		return here;
	}
	there = rolling_run_git(top_args, NULL, ROLLING_RUN_NO_STDOUT | ROLLING_RUN_NO_STDERR);
	if (there < 0) {
		err = there;
	} else if (here != there) {
		refusal = rolling_git_words(said, ROLLING_GIT_WORDS_LINE);
		err = *refusal ? rolling_error("%s", refusal) :
		      rolling_error("git bisect does not run in this directory; run it from the"
				    " top of the work tree");
	}
	free(said);
	return err;
}
