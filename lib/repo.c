#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repo.h"
#include "hazard.h"
#include "cmdline-config.h"
#include "error.h"
#include "git2-compat.h"
#include "run-command.h"

/*
 * libgit2 1.7 and later refused to open the repository over a graft or
 * shallow file, without naming it: git says where the repository's
 * directories are, and the check that the other releases make at once
 * (check_graft_files()) finds the file and the line.
 */
static int graft_file_refused(int code)
{
	const char *args[] = { "rev-parse", "--path-format=absolute", "--git-dir",
			       "--git-common-dir", NULL };
	char *out = NULL, *common, *libgit2_says;
	int found = 0;

	rolling_git_error(code, "cannot open the repository");
	libgit2_says = rolling_error_take();
	if (!rolling_run_git(args, &out, ROLLING_RUN_CAPTURE | ROLLING_RUN_NO_STDERR) &&
	    (common = strchr(out, '\n'))) {
		*common++ = '\0';
		common[strcspn(common, "\n")] = '\0';
		found = rolling_hazard_check_graft_files(out, common) < 0;
	}
	free(out);
	if (!found)
		return rolling_error_restore(code, libgit2_says);
	free(libgit2_says);
	return code;
}

/* What every libgit2 release from 1.7 on would refuse is refused on all. */
static int check_graft_files(git_repository *repo)
{
	return rolling_hazard_check_graft_files(git_repository_path(repo),
						git_repository_commondir(repo));
}

int rolling_repo_open(git_repository **repo)
{
	int err = git_repository_open_ext(repo, ".", GIT_REPOSITORY_OPEN_FROM_ENV, NULL);

	if (err == GIT_ENOTFOUND)
		return rolling_error_code(ROLLING_ENOTFOUND,
					  "not a git repository (or any of the parent directories): .git");
	if (err < 0 && rolling_git_error_is_grafts())
		return graft_file_refused(err);
	if (err < 0)
		return rolling_git_error(err, "cannot open the repository");
	if ((err = check_graft_files(*repo)) < 0 ||
	    (err = rolling_apply_cmdline_config(*repo)) < 0) {
		git_repository_free(*repo);
		*repo = NULL;
	}
	return err;
}

/*
 * The same rules as verify's detailed reports (hazard.h), so that a
 * warning here and a failure there always agree.
 */
int rolling_repo_hazards(unsigned *hazards, git_repository *repo)
{
	struct rolling_hazard *list;
	size_t nr;
	int err;

	*hazards = 0;
	if ((err = rolling_hazard_replacements(&list, &nr, repo)) < 0)
		return err;
	rolling_hazard_free(list, nr);
	if (nr)
		*hazards |= ROLLING_HAZARD_REPLACE;
	if ((err = rolling_hazard_grafts(&list, &nr, repo)) < 0)
		return err;
	rolling_hazard_free(list, nr);
	if (nr)
		*hazards |= ROLLING_HAZARD_GRAFTS;
	if (rolling_hazard_is_shallow(repo))
		*hazards |= ROLLING_HAZARD_SHALLOW;
	return 0;
}

static const struct {
	enum rolling_repo_hazard bit;
	const char *name;
} hazard_names[] = {
	{ ROLLING_HAZARD_REPLACE, "replace" },
	{ ROLLING_HAZARD_GRAFTS, "grafts" },
	{ ROLLING_HAZARD_SHALLOW, "shallow" },
};

const char *rolling_repo_hazard_next(unsigned *hazards)
{
	size_t i;

	for (i = 0; i < sizeof(hazard_names) / sizeof(hazard_names[0]); i++) {
		if (*hazards & hazard_names[i].bit) {
			*hazards &= ~(unsigned)hazard_names[i].bit;
			return hazard_names[i].name;
		}
	}
	return NULL;
}

int rolling_repo_warn_hazards(git_repository *repo)
{
	unsigned hazards;
	int err;

	if ((err = rolling_repo_hazards(&hazards, repo)) < 0)
		return err;
	if (hazards & ROLLING_HAZARD_REPLACE)
		rolling_warning("%s is not empty: git rolling reads objects as stored, "
				"without replacements, while git shows the replacements",
				rolling_hazard_replace_base());
	if (hazards & ROLLING_HAZARD_GRAFTS)
		rolling_warning(ROLLING_LIBGIT2_READS_GRAFTS ?
				"info/grafts exists: git and git rolling honour grafts,"
				" and verify fails on the history they change" :
				"info/grafts exists: git rolling ignores grafts, git honours them");
	return 0;
}
