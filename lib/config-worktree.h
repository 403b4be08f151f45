#ifndef ROLLING_CONFIG_WORKTREE_H
#define ROLLING_CONFIG_WORKTREE_H

#include <git2.h>

/*
 * The levels of the per-worktree configuration and of `git -c`, both
 * above the repository's own file, as git orders them.  libgit2 1.8
 * numbered GIT_CONFIG_LEVEL_WORKTREE LOCAL + 1 and moved
 * GIT_CONFIG_LEVEL_APP to LOCAL + 2; older releases, which have no
 * worktree level, take any number, so the same two serve every version.
 */
#define ROLLING_CONFIG_LEVEL_WORKTREE ((git_config_level_t)(GIT_CONFIG_LEVEL_LOCAL + 1))
#define ROLLING_CONFIG_LEVEL_COMMAND_LINE ((git_config_level_t)(GIT_CONFIG_LEVEL_LOCAL + 2))

/*
 * With extensions.worktreeConfig true in the repository's config file
 * (git honours it in a repository of format 0 as well as 1), git reads
 * <git-dir>/config.worktree after it, for this work tree only: where
 * `git sparse-checkout` and `git config --worktree` write.  libgit2
 * reads it from 1.8 on; for older releases add it to the repository's
 * configuration at ROLLING_CONFIG_LEVEL_WORKTREE.
 *
 * Returns 1 when this added the file, 0 when there was nothing to do
 * (no extension, or libgit2 read the file itself), or a negative error.
 */
int rolling_config_worktree_add(git_repository *repo);

#endif
