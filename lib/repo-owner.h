#ifndef ROLLING_REPO_OWNER_H
#define ROLLING_REPO_OWNER_H

#include <git2.h>

/*
 * The cheap half of git's ownership check of a repository it finds by
 * searching (setup.c, ensure_valid_ownership()): 1 when git, searching
 * up from the current directory, stops in the work tree where `repo`
 * was found and finds every path it checks there the current user's,
 * so that it uses the repository without reading safe.directory; 0
 * when it may not, or when this cannot tell.
 *
 * The paths are the work tree's .git (a file or the directory), the
 * directory holding it and the git directory, each judged by lstat():
 * the effective user owns it or, for root, the user SUDO_UID names.
 * With GIT_TEST_ASSUME_DIFFERENT_OWNER, which git's tests set, no path
 * is ours.  A repository found as bare answers 0 (no .git names it);
 * in the .git directory of a work tree, the work tree is judged, which
 * covers the git directory git checks there.
 *
 * 0 never means "refused": the caller asks git, which alone reads
 * safe.directory (from every configuration it honours, `git -c` too)
 * and words the refusal.  Every doubt therefore answers 0: a value of
 * SUDO_UID that is not a plain number, a .git that does not name the
 * repository libgit2 opened.  libgit2's own check, which is not git's,
 * is off for the whole process (setup.h).
 */
int rolling_repo_owned(git_repository *repo);

#endif
