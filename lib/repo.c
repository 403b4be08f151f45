#include <stdio.h>
#include "repo.h"
#include "hazard.h"
#include "cmdline-config.h"
#include "repo-open.h"
#include "error.h"
#include "git2-compat.h"
#include "refs.h"

/* What every libgit2 release from 1.7 on would refuse is refused on all. */
static int check_graft_files(git_repository *repo)
{
	return rolling_hazard_check_graft_files(git_repository_path(repo),
						git_repository_commondir(repo));
}

int rolling_repo_open(git_repository **repo)
{
	int err = rolling_repo_open_env(repo);

	if (err < 0)
		return err;
	if ((err = check_graft_files(*repo)) < 0 ||
	    (err = rolling_apply_cmdline_config(*repo)) < 0) {
		rolling_repo_free(*repo);
		*repo = NULL;
	}
	return err;
}

void rolling_repo_free(git_repository *repo)
{
	if (!repo)
		return;
	rolling_refs_release(repo);
	git_repository_free(repo);
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
