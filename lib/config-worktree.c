#include <stdlib.h>
#include <string.h>
#include "config-worktree.h"
#include "error.h"
#include "strbuf.h"

/* extensions.worktreeConfig, read from the repository's own file as git reads it. */
static int extension_enabled(int *enabled, git_config *config)
{
	git_config *local;
	int err;

	*enabled = 0;
	if ((err = git_config_open_level(&local, config, GIT_CONFIG_LEVEL_LOCAL)) < 0)
		return err == GIT_ENOTFOUND ? 0 : err;
	err = git_config_get_bool(enabled, local, "extensions.worktreeconfig");
	git_config_free(local);
	return err == GIT_ENOTFOUND ? 0 : err;
}

/* 1 when a file is already read at the worktree level (libgit2 1.8 and later). */
static int level_present(git_config *config)
{
	git_config *level;

	if (git_config_open_level(&level, config, ROLLING_CONFIG_LEVEL_WORKTREE) < 0)
		return 0;
	git_config_free(level);
	return 1;
}

int rolling_config_worktree_add(git_repository *repo)
{
	struct strbuf path = STRBUF_INIT;
	git_config *config;
	int enabled, err;

	if ((err = git_repository_config(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	if ((err = extension_enabled(&enabled, config)) < 0) {
		err = rolling_git_error(err, "cannot read extensions.worktreeConfig");
		goto out;
	}
	if (!enabled || level_present(config))
		goto out;
	strbuf_addf(&path, "%sconfig.worktree", git_repository_path(repo));
	if (strbuf_oom(&path)) {
		err = rolling_error_nomem();
		goto out;
	}
	/* A file that does not exist yet reads as empty, as in git. */
	if ((err = git_config_add_file_ondisk(config, path.buf, ROLLING_CONFIG_LEVEL_WORKTREE,
					      repo, 0)) < 0)
		err = rolling_git_error(err, "cannot read '%s'", path.buf);
	else
		err = 1;
out:
	strbuf_release(&path);
	git_config_free(config);
	return err;
}
