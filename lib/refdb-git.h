#ifndef ROLLING_REFDB_GIT_H
#define ROLLING_REFDB_GIT_H

#include <git2.h>

/*
 * A libgit2 ref database that asks git, for a repository whose refs no
 * libgit2 release can read (reftable: ref-store.h).  Every libgit2 call
 * that reads a ref (lookups, iterators, revparse, HEAD) is answered from
 * what `git for-each-ref` printed, and every write goes through
 * `git update-ref`, so that git's own code reads and writes the table
 * stack, its locks and its reflogs.
 *
 * Why not read the tables ourselves: git is the well-kept implementation
 * of the format, and reading through it costs one process per change of
 * the stack (measured by `make bench`, p2000): the listing is kept until
 * the stack's tables.list changes, and that file, rewritten by every
 * transaction git commits (a new table, or a compaction), is read again
 * before every answer.  A process that writes refs and then reads them
 * back sees what it wrote, and a ref another process moved is never
 * answered from an older listing.
 *
 * HEAD and the other root refs (ORIG_HEAD, ...) come with the listing
 * where git can list them (for-each-ref --include-root-refs, git 2.46);
 * an unborn HEAD, the HEAD of another work tree (worktrees/<id>/HEAD,
 * main-worktree/HEAD) and, with an older git, every root ref are asked
 * of git one by one.
 *
 * Refs that git ignores as broken (a dangling symbolic ref, a ref to a
 * missing object) are not listed, as git lists them for its commands.
 * Reflogs are git's: has_log asks `git reflog exists`; reading one
 * through libgit2 is not supported (git rolling reads none), and neither
 * are renames and symbolic writes (it makes none).
 *
 * git runs in this process's directory and environment, so it finds the
 * repository exactly as git would for a command typed here: the caller
 * must have opened the same one (repo-open.h).
 */

/*
 * Replace the ref database of `repo` by one that asks git.  Returns 0,
 * or a negative error (libgit2's) with a message.
 */
int rolling_refdb_git_install(git_repository *repo);

#endif
