#ifndef ROLLING_REPO_FORMAT_H
#define ROLLING_REPO_FORMAT_H

#include <git2.h>

/*
 * The formats a repository stores its refs and objects in, as its own
 * config file declares them (extensions.refStorage,
 * extensions.objectFormat, in the file's own lines: git follows no
 * include there), checked after every open whatever libgit2 allowed:
 *
 *  - refs in "files" (no extension): libgit2 reads and git-rolling
 *    writes them (refs.h, refs-files.c);
 *  - refs in "reftable" (git 2.45's format, Git 3.0's default): no
 *    libgit2 release reads them, so libgit2's ref database is replaced
 *    by one that reads the table stacks with git's reftable library
 *    (refdb-reftable.h), once git has said it finds the same repository
 *    and reads its refs as reftable; every write goes through git's own
 *    transaction (refs.h, refs-reftable.c);
 *  - any other ref format, and objects in any format but SHA-1, are
 *    refused with a message that names the format and the way out,
 *    before anything is read or written.
 *
 * The format read here is the one the ref layer (refs.h) writes with
 * until the repository is freed (rolling_repo_free(), repo.h): it is
 * read once, at open, as git reads it once.
 *
 * Built against a libgit2 that reads reftable itself (libgit2 main,
 * git2-compat.h), the same: git's reading of the format decides, and a
 * repository git reads as files gets libgit2's files backend, whatever
 * libgit2 made of the format.
 */
int rolling_repo_format_check(git_repository *repo);

/*
 * libgit2 could not open the repository whose git directory is
 * `gitdir`: when its configuration declares a ref format git rolling
 * does not know, the refusal rolling_repo_format_check() gives, else 0.
 * libgit2 main refuses to open such a repository itself (its own
 * reftable support reads extensions.refStorage), where 1.5 to 1.9 open
 * it and leave the refusal to rolling_repo_format_check().
 */
int rolling_repo_format_check_unopened(const char *gitdir);

/*
 * 1 when the repository keeps its refs in reftable, 0 in files, as its
 * open found (no config is read here); a negative error when it was not
 * opened through repo-open.h.
 */
int rolling_repo_is_reftable(git_repository *repo);

#endif
