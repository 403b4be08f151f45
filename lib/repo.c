#include <stdio.h>
#include <sys/stat.h>
#include "repo.h"
#include "cmdline-config.h"
#include "error.h"

int rolling_repo_open(git_repository **repo)
{
	int err = git_repository_open_ext(repo, ".", GIT_REPOSITORY_OPEN_FROM_ENV, NULL);

	if (err == GIT_ENOTFOUND)
		return rolling_error_code(ROLLING_ENOTFOUND,
					  "not a git repository (or any of the parent directories): .git");
	if (err < 0)
		return rolling_git_error(err, "cannot open the repository");
	if ((err = rolling_apply_cmdline_config(*repo)) < 0) {
		git_repository_free(*repo);
		*repo = NULL;
	}
	return err;
}

static int has_replace_refs(git_repository *repo, int *found)
{
	git_reference_iterator *iter;
	git_reference *ref;
	int err;

	*found = 0;
	if ((err = git_reference_iterator_glob_new(&iter, repo, "refs/replace/*")) < 0)
		return rolling_git_error(err, "cannot read refs/replace/");
	err = git_reference_next(&ref, iter);
	if (!err) {
		*found = 1;
		git_reference_free(ref);
	}
	git_reference_iterator_free(iter);
	if (err && err != GIT_ITEROVER)
		return rolling_git_error(err, "cannot read refs/replace/");
	return 0;
}

static int file_exists(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && st.st_size > 0;
}

int rolling_repo_hazards(unsigned *hazards, git_repository *repo)
{
	const char *common = git_repository_commondir(repo);
	int replace, err;

	*hazards = 0;
	if ((err = has_replace_refs(repo, &replace)) < 0)
		return err;
	if (replace)
		*hazards |= ROLLING_HAZARD_REPLACE;
	if (file_exists(common, "info/grafts"))
		*hazards |= ROLLING_HAZARD_GRAFTS;
	if (git_repository_is_shallow(repo))
		*hazards |= ROLLING_HAZARD_SHALLOW;
	return 0;
}

int rolling_repo_warn_hazards(git_repository *repo)
{
	unsigned hazards;
	int err;

	if ((err = rolling_repo_hazards(&hazards, repo)) < 0)
		return err;
	if (hazards & ROLLING_HAZARD_REPLACE)
		rolling_warning("refs/replace/ is not empty: git rolling reads objects as stored, "
				"without replacements, while git shows the replacements");
	if (hazards & ROLLING_HAZARD_GRAFTS)
		rolling_warning("info/grafts exists: git rolling ignores grafts, git honours them");
	return 0;
}
