#ifndef ROLLING_ABBREV_H
#define ROLLING_ABBREV_H

#include <git2.h>

/*
 * Abbreviated object ids exactly as git 2.39 prints them (`git rev-parse
 * --short`, `git log --oneline`), which libgit2 1.5 does not do: it
 * neither understands core.abbrev=auto nor scales the length with the
 * size of the repository.
 */

/* core.abbrev unset or "auto": scale with the number of packed objects. */
#define ROLLING_ABBREV_AUTO -1

/*
 * Read core.abbrev as git does: "auto" (or unset) gives
 * ROLLING_ABBREV_AUTO; a false boolean ("false", "no", "off", empty) the
 * full length; otherwise a number from 4 to 40.  Anything else is an
 * error naming the key, as git refuses it.
 */
int rolling_abbrev_config(int *len, git_repository *repo);

/*
 * The length git starts from for `len` (a core.abbrev value): for
 * ROLLING_ABBREV_AUTO, the number of bits of the packed-object count
 * (loose objects are not counted, as in git), halved and rounded up, and
 * at least 7.  Sets *start.
 */
int rolling_abbrev_start(int *start, git_repository *repo, int len);

/*
 * Write the shortest prefix of `id` of at least `start` hex digits that
 * names no other object into buf (GIT_OID_HEXSZ + 1 bytes).  Returns 0,
 * or a negative error when the object database cannot be read.
 */
int rolling_abbrev_oid(char *buf, git_repository *repo, int start, const git_oid *id);

/*
 * The one rule for an object id shown to people, by every command and
 * in every message: the abbreviation git would print in this repository
 * (core.abbrev and its "auto" scaling, the shortest unique prefix from
 * there), written into buf (ROLLING_ABBREV_BUFSZ bytes) and returned;
 * the first 12 hex digits when the configuration or the object
 * database cannot be read (an object not written yet, say).
 */
#define ROLLING_ABBREV_BUFSZ (GIT_OID_HEXSZ + 1)
#define ROLLING_ABBREV_FALLBACK 12

const char *rolling_abbrev(char *buf, git_repository *repo, const git_oid *id);

#endif
