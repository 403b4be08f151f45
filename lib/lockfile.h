#ifndef ROLLING_LOCKFILE_H
#define ROLLING_LOCKFILE_H

#include "tempfile.h"

/*
 * A lock as git takes one (lockfile.c): <path>.lock, created exclusively
 * by whoever is to replace <path>, holding the new content until it is
 * renamed over <path> (commit) or removed (rollback).  Another process
 * that finds it waits, or fails.  Every lock the commands take is taken
 * here, and is a registered temporary file (tempfile.h): it goes when
 * the process ends without committing it, killed or not.
 */
struct rolling_lock {
	struct rolling_tempfile file;
};

#define ROLLING_LOCK_INIT { ROLLING_TEMPFILE_INIT }

/* Another process holds the lock (matches GIT_ELOCKED on purpose). */
#define ROLLING_ELOCKED -14

#define ROLLING_LOCK_SUFFIX ".lock"

struct strbuf;

/*
 * The words for a lock that another process holds, in one place, as
 * git's unable_to_lock_message() has them.  Each lock is one line,
 * "Unable to create '<lock>': File exists.", headed "cannot lock ref
 * '<refname>': " as git's ref backends head it when `refname` is not
 * NULL; rolling_lock_held_error() then adds git's advice once, and
 * `tail` (a line of ours, "nothing was changed") when not NULL, records
 * the message and returns ROLLING_ELOCKED.  rolling_lock_held_error_one()
 * does both for one lock.
 */
void rolling_lock_held_line(struct strbuf *lines, const char *refname, const char *lock);
int rolling_lock_held_error(const struct strbuf *lines, const char *tail);
int rolling_lock_held_error_one(const char *refname, const char *lock, const char *tail);

/*
 * Take <path>.lock, open for writing, waiting up to `timeout_ms`
 * milliseconds (0: not at all) while another process holds it.  0;
 * ROLLING_ELOCKED when it is still held then, with git's message and
 * advice ("Unable to create '<path>.lock': File exists. ..."); another
 * negative error naming the file and why.  errno says why in both.
 */
int rolling_lock_acquire(struct rolling_lock *lk, const char *path, long timeout_ms);

/* <path>.lock; NULL when the lock is not held. */
const char *rolling_lock_path(const struct rolling_lock *lk);

/* Its descriptor while open, -1 after rolling_lock_close(). */
int rolling_lock_fd(const struct rolling_lock *lk);

int rolling_lock_is_held(const struct rolling_lock *lk);

/*
 * A stream on its descriptor, which the stream then owns: fclose() it
 * before rolling_lock_commit().  NULL with errno.
 */
FILE *rolling_lock_fdopen(struct rolling_lock *lk, const char *mode);

/* The content is written: close it, the lock still held.  0, or -1 with errno. */
int rolling_lock_close(struct rolling_lock *lk);

/*
 * Rename <path>.lock over <path>: the new content takes the old's place
 * at once, and the lock is released.  0, or -1 with errno, the lock
 * still held.
 */
int rolling_lock_commit(struct rolling_lock *lk);

/* Release the lock without a change: <path>.lock removed.  Safe when not held. */
void rolling_lock_rollback(struct rolling_lock *lk);

#endif
