#ifndef ROLLING_REFDB_REFTABLE_H
#define ROLLING_REFDB_REFTABLE_H

#include <git2.h>

/*
 * A libgit2 ref database for a repository whose refs are in reftable
 * (repo-format.h), which no libgit2 release reads.
 *
 * Reading: by git's own reftable library (lib/vendor/reftable/, on the
 * host functions of reftable-system.c), as git's reftable backend
 * (refs/reftable-backend.c) reads: each name from the one stack git
 * reads it from, a linked work tree's own names (HEAD, refs/bisect/,
 * refs/worktree/, refs/rewritten/, ...) from its own stack
 * (worktrees/<id>/reftable), every other name from the common stack
 * only, even when the work tree's stack holds it too (git's
 * for-each-ref alone would list that one: the value git resolves the
 * name to is the one every command uses); another work
 * tree's (worktrees/<id>/HEAD, main-worktree/HEAD) from its stack.  A
 * stack is reloaded before every answer (a stat of its tables.list when
 * nothing changed), so a process that writes refs sees what it wrote and
 * a ref another process moved is never answered from an older reading;
 * a listing of refs/ is kept until a stack changes.  Refs with names git
 * would not accept are left out, as git leaves them out.  A table that
 * git's library cannot read, or that a stack names and is gone, is an
 * error, never a partial listing.
 *
 * Why read the tables here rather than ask git: at kernel scale (5,435
 * tags, `make bench` p2000) `git for-each-ref` with the peeled values
 * that the tags are classified by took 0.32 s, more than twice a whole
 * advance --dry-run in a files repository (0.15 s), because it reads
 * every tag object; the tables hold the peeled values, and reading them
 * takes milliseconds.
 *
 * Writing: none.  Every ref git-rolling writes goes through its ref
 * transaction (refs.h), whose reftable backend (refs-reftable.c) hands it
 * to git (`git update-ref --stdin`): the project's one writer of
 * reftable refs.  Nothing calls libgit2's write paths any more
 * (git_reference_create_matching(), git_reference_delete() and the
 * like: branch-move.c deleted a ref that way until it went through
 * refs.h too), so they fail here with an error that says so, rather than
 * keep a second writer with its own message rules that no test would
 * reach.  Reflogs are git's: has_log asks `git reflog exists`; reading
 * one through libgit2 is not supported (git rolling reads none), and
 * neither are renames.
 *
 * git runs in this process's directory and environment, so it finds the
 * repository exactly as git would for a command typed here: the caller
 * must have opened the same one (repo-open.h).
 */

/*
 * Replace the ref database of `repo` by this one.  Returns 0, or a
 * negative error with a message.
 */
int rolling_refdb_reftable_install(git_repository *repo);

#endif
