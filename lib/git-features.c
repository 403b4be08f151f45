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
	struct rolling_child git = ROLLING_CHILD_INIT;
	unsigned major, minor;
	char *line;
	int err;

	rolling_strvec_push(&git.args, "version");
	git.out = ROLLING_CHILD_CAPTURE;
	if ((err = rolling_child_run(&git)) > 0)
		err = rolling_error("git version failed (exit status %d)", err);
	if (err < 0)
		goto out;
	line = git.captured.buf;
	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "git version %u.%u", &major, &minor) != 2)
		err = rolling_error("cannot tell the version of git from '%s'", line);
	else if (major < FIRST_PARENT_MAJOR ||
		 (major == FIRST_PARENT_MAJOR && minor < FIRST_PARENT_MINOR))
		err = rolling_error("git %d.%d or later is needed for first-parent bisection"
				    " (this is %s)", FIRST_PARENT_MAJOR, FIRST_PARENT_MINOR,
				    line + strlen("git version "));
out:
	rolling_child_release(&git);
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
	static const char *const args[] = { "bisect", "help", NULL };
	struct rolling_child here_git = ROLLING_CHILD_INIT, there_git = ROLLING_CHILD_INIT;
	const char *refusal;
	int here, there, err = 0;

	if (rolling_same_dir(top, "."))
		return 0;
	rolling_strvec_pushv(&here_git.args, args);
	here_git.out = ROLLING_CHILD_CAPTURE;
	here_git.err = ROLLING_CHILD_ERR_TO_STDOUT;
	rolling_strvec_push(&there_git.args, "-C");
	rolling_strvec_push(&there_git.args, top);
	rolling_strvec_pushv(&there_git.args, args);
	there_git.out = ROLLING_CHILD_DISCARD;
	there_git.err = ROLLING_CHILD_ERR_DISCARD;
	if ((here = rolling_child_run(&here_git)) < 0) {
		err = here;
	} else if ((there = rolling_child_run(&there_git)) < 0) {
		err = there;
	} else if (here != there) {
		refusal = rolling_git_words(here_git.captured.buf, ROLLING_GIT_WORDS_LINE);
		err = *refusal ? rolling_error("%s", refusal) :
		      rolling_error("git bisect does not run in this directory; run it from the"
				    " top of the work tree");
	}
	rolling_child_release(&here_git);
	rolling_child_release(&there_git);
	return err;
}
