#ifndef ROLLING_REPO_OPEN_H
#define ROLLING_REPO_OPEN_H

#include <git2.h>

/*
 * Find and open the repository as git's setup does for a command run in
 * the current directory, with the parts of git's environment that
 * `git merge` and `git log` honour; libgit2 is asked to read none of
 * them itself (its GIT_REPOSITORY_OPEN_FROM_ENV differs between
 * releases, refuses GIT_WORK_TREE before 1.7 and applies GIT_NAMESPACE
 * to every ref, which git does only when serving a fetch or push):
 *
 *  - GIT_DIR names the git directory (no search); without GIT_WORK_TREE
 *    or core.worktree, a repository that is not bare then has the
 *    current directory as its work tree, as in git.  Else the search
 *    goes up from the current directory, stopping at
 *    GIT_CEILING_DIRECTORIES and, unless GIT_DISCOVERY_ACROSS_FILESYSTEM,
 *    at a file system boundary.
 *  - GIT_WORK_TREE names the work tree.
 *  - GIT_OBJECT_DIRECTORY replaces <git-dir>/objects and
 *    GIT_ALTERNATE_OBJECT_DIRECTORIES adds alternates, as for git.
 *  - config.worktree is read when extensions.worktreeConfig says so
 *    (config-worktree.h), also for core.bare and core.worktree; its
 *    core.bare wins over the config's either way.  A repository bare by
 *    its config that config.worktree says is not gets the work tree git
 *    finds (git is asked).
 *  - Found by the search from inside its git directory (`git -C
 *    repo.git`, the git directory of `git init --separate-git-dir`), a
 *    repository that is not bare has no work tree but core.worktree, as
 *    in git, where libgit2 would take the directory above it.  Where git
 *    finds none, the repository is opened as a bare one (no work tree),
 *    though git does not call it bare: see rolling_repo_is_bare().
 *  - GIT_INDEX_FILE: see rolling_repo_index_file().
 *  - GIT_COMMON_DIR, which libgit2 cannot follow, is refused.
 *
 * A bare repository found by the search is used only where git uses
 * it: safe.bareRepository=explicit (Git 3.0's default) gets git's own
 * refusal.  A repository found by the search whose owner git refuses
 * gets git's own refusal ("detected dubious ownership ..." with its
 * safe.directory hint); the owner is judged by git's rule, and git is
 * asked only when it is not the current user's (repo-owner.h), so that
 * safe.directory, also from `git -c`, counts as for git.  A repository
 * named by GIT_DIR is used whoever owns it, as git uses it.  A SHA-256
 * repository gets an error that says libgit2 cannot read it.  When
 * libgit2 cannot open the repository, git is asked what it sees, so
 * that every refusal is git's.  Returns 0, or a negative error
 * (ROLLING_ENOTFOUND when there is no repository).  The repository is
 * freed with rolling_repo_free() (repo.h).
 */
int rolling_repo_open_env(git_repository **repo);

/*
 * Whether git calls the repository bare (its is_bare_repository()): it
 * has no work tree, and core.bare is not false.  A repository opened
 * without a work tree whose core.bare is false is one git rolling runs
 * in the git directory of: the branch its HEAD names is checked out in
 * a work tree out of reach, and git refuses to move it here ("this
 * operation must be run in a work tree").  Not bare when the
 * configuration cannot be read.
 */
int rolling_repo_is_bare(git_repository *repo);

/*
 * The index file git uses in this repository: $GIT_INDEX_FILE (a
 * relative name is taken from the top of the work tree, where git runs
 * its commands), else <git-dir>index.  The caller frees it; NULL when out
 * of memory.
 */
char *rolling_repo_index_file(git_repository *repo);

/*
 * The object directory git writes to: $GIT_OBJECT_DIRECTORY, else the
 * common git directory's objects, without a final '/'.  The caller frees
 * it; NULL when out of memory.
 */
char *rolling_repo_objects_dir(git_repository *repo);

#endif
