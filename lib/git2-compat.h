#ifndef ROLLING_GIT2_COMPAT_H
#define ROLLING_GIT2_COMPAT_H

/*
 * The one place where differences between libgit2 releases live.
 * git-rolling builds against libgit2 1.5 (Debian 12) up to 1.9 (Debian 13,
 * Arch); every difference it meets is handled here, by version, and the
 * rest of lib/ calls what this header gives instead of testing versions.
 * Each entry says which release changed what, so that it can go once the
 * oldest supported release no longer needs it.
 *
 * libgit2's main branch (tested at 0551dfd, 2026-08-15), the release
 * after 1.9, still calls itself 1.9.0: what it changed cannot be told by
 * version, so the Makefile probes it (it compiles a declaration against
 * the headers found) and defines ROLLING_PROBED_* for what it finds.
 */

#include <string.h>
#include <git2.h>

/* 1.9 renamed LIBGIT2_VER_* to LIBGIT2_VERSION_* (the old names are deprecated). */
#ifdef LIBGIT2_VERSION_MAJOR
#define ROLLING_LIBGIT2_NUMBER \
	(LIBGIT2_VERSION_MAJOR * 10000 + LIBGIT2_VERSION_MINOR * 100 + LIBGIT2_VERSION_REVISION)
#else
#define ROLLING_LIBGIT2_NUMBER \
	(LIBGIT2_VER_MAJOR * 10000 + LIBGIT2_VER_MINOR * 100 + LIBGIT2_VER_REVISION)
#endif

/* Built against libgit2 major.minor.revision or newer? */
#define ROLLING_LIBGIT2_AT_LEAST(major, minor, revision) \
	(ROLLING_LIBGIT2_NUMBER >= (major) * 10000 + (minor) * 100 + (revision))

/* 1.8 moved git_error_clear() out of git2.h, into the "sys" headers. */
#if ROLLING_LIBGIT2_AT_LEAST(1, 8, 0)
#include <git2/sys/errors.h>
#endif

/*
 * libgit2's last error message, or NULL when it recorded none: before
 * 1.8 git_error_last() returns NULL then, from 1.8 an error of class
 * GIT_ERROR_NONE saying "no error".
 */
static inline const char *rolling_git_error_message(void)
{
	const git_error *e = git_error_last();

	if (!e || e->klass == GIT_ERROR_NONE || !e->message || !*e->message)
		return NULL;
	return e->message;
}

/*
 * Free a config transaction made by git_config_lock(tx, locked) and the
 * config it locked, both NULL-safe.  `commit_tried` says whether
 * git_transaction_commit() was called on it, whatever it returned: that
 * hands the lock back to `locked` in every release.  Who frees `locked`
 * otherwise changed in 1.8: before, git_transaction_free() of a
 * transaction never committed frees the config it locked as well
 * (transaction.c calls git_config_free()); from 1.8 the transaction
 * holds a reference of its own on the backend and the config stays the
 * caller's.
 */
static inline void rolling_git_config_unlock_free(git_transaction *tx, git_config *locked,
						  int commit_tried)
{
#if !ROLLING_LIBGIT2_AT_LEAST(1, 8, 0)
	if (tx && !commit_tried)
		locked = NULL;          /* git_transaction_free() frees it */
#else
	(void)commit_tried;
#endif
	git_transaction_free(tx);
	git_config_free(locked);
}

/*
 * From 1.7 libgit2 reads info/grafts and "shallow" itself when it opens
 * a repository, honours them in the parents of every commit it parses,
 * and refuses to open the repository when it cannot parse them (error
 * class GIT_ERROR_GRAFTS); before, it read the parents as stored.
 */
#define ROLLING_LIBGIT2_READS_GRAFTS ROLLING_LIBGIT2_AT_LEAST(1, 7, 0)

/* Did the last libgit2 call fail on a graft or shallow file? */
static inline int rolling_git_error_is_grafts(void)
{
#if ROLLING_LIBGIT2_READS_GRAFTS
	const git_error *e = git_error_last();

	return e && e->klass == GIT_ERROR_GRAFTS;
#else
	return 0;
#endif
}

/*
 * main reads reftable repositories itself (probed: ROLLING_PROBED_REFTABLE,
 * git_refdb_backend_reftable(), over a copy of git's reftable library in
 * deps/reftable) and opens them with that ref database.  git-rolling
 * replaces it with its own, over git 2.55's library (repo-format.h,
 * refdb-reftable.h), as on the releases: one reading whatever the
 * libgit2, and as of 0551dfd main's is not git's where the suite looks.
 * It lists refs whose names git refuses and leaves out (t8042), and one
 * of a name git finds dangerous where git fails; looks another work
 * tree's refs up by git's names (worktrees/<id>/HEAD) in the current
 * work tree's stack and finds nothing (t8041, t8040 "linked work
 * trees"), which let advance move a branch checked out elsewhere; and
 * fails on a damaged stack in the middle of a listing, in its own words
 * and without naming the stack (t8041, t8042, t8044).  It also reads
 * extensions.refStorage through [include]s, which git does not: a
 * repository git reads as files gets libgit2's files backend from
 * repo-format.c, whatever main made of it (t8045).
 */
#ifdef ROLLING_PROBED_REFTABLE
#define ROLLING_LIBGIT2_READS_REFTABLE 1
#else
#define ROLLING_LIBGIT2_READS_REFTABLE 0
#endif

/*
 * A loose object backend for the objects directory `dir`, with libgit2's
 * defaults.  git_odb_backend_loose() takes an options struct on main
 * (probed: ROLLING_PROBED_LOOSE_OPTIONS; 1.9 takes one only when built
 * with GIT_EXPERIMENTAL_SHA256), four arguments more before.
 */
static inline int rolling_git_odb_backend_loose(git_odb_backend **out, const char *dir)
{
#ifdef ROLLING_PROBED_LOOSE_OPTIONS
	return git_odb_backend_loose(out, dir, NULL);   /* NULL: the defaults */
#else
	return git_odb_backend_loose(out, dir, -1, 0, 0, 0);
#endif
}

/*
 * Set `out` to the null object id, forty zeros (git's null_oid(), the old
 * value of a reflog line that creates its ref).  On main, and 1.9 built
 * with GIT_EXPERIMENTAL_SHA256, a git_oid records its type: one zeroed by
 * memset() or `= { 0 }` has none, git_oid_tostr() prints it as "" (a
 * reflog line "<empty> <new> ..." git reads as no line) and
 * git_oid_equal() finds it equal to no id libgit2 made.  1.5 to 1.7
 * have neither the type nor GIT_OID_SHA1_ZERO.
 */
static inline void rolling_git_oid_zero(git_oid *out)
{
#ifdef GIT_OID_SHA1_ZERO
	const git_oid zero = GIT_OID_SHA1_ZERO;

	git_oid_cpy(out, &zero);
#else
	memset(out, 0, sizeof(*out));
#endif
}

/*
 * Before 1.6.1 every regex match of the PCRE2 backend leaks its match
 * data (util/regexp.c, git_regexp_match(); measured on 1.5.1): each
 * entry git_config_iterator_glob_new() tests, each value
 * git_config_set_multivar() tries its regex on, and git_remote_list()
 * and git_remote_lookup(), which read the config through such regexes;
 * a multivar iterator without a value regex matches none and does not
 * leak.  Until 1.6.1 is the oldest release supported, lib/config.c
 * (rolling_config_names(), which lists the branches and the followed
 * remotes), lib/remote-config.c (add_branch_value()), lib/init-plan.c
 * (rolling_init_split_followed()) and lib/fetch-plan.c (check_remote())
 * do without those calls, whichever release they are built against:
 * one way that is right on all of them.
 */

#endif
