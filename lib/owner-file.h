#ifndef ROLLING_OWNER_FILE_H
#define ROLLING_OWNER_FILE_H

#include <stddef.h>
#include <sys/types.h>
#include "tempfile.h"

/*
 * Owner files: a file that its maker holds under flock(LOCK_EX) for as
 * long as it lives, to say "this is a living run's".  The kernel drops
 * the flock when the process ends, killed or not (a child that
 * inherited the descriptor holding it on), so whoever takes the flock
 * knows the owner is gone and may undo or remove what it left.  The
 * quarantine's owner file, the work tree's intent file and the ref
 * journal are owner files.
 *
 * An owner file appears at its name whole and already locked: it is
 * made under a draft name, <path>.draft-<random>, locked, written, and
 * only then given its name.  Made under its own name, a sweep could
 * find it between the open() and the flock(), take the flock itself and
 * remove a living run's file.  A draft is swept too (a run killed with
 * SIGKILL cannot remove it), but only once nobody holds its flock and
 * it is older than ROLLING_OWNER_DRAFT_GRACE: its maker may be between
 * the open() and the flock() this very moment.
 */

#define ROLLING_OWNER_DRAFT_GRACE 60    /* seconds */

/*
 * Make the owner file `path` (mode `mode`, less the umask), holding its
 * flock, with `len` bytes of `content` written and synced (none when
 * `len` is 0).  `flags` are rolling_tempfile_flags; the file stays a
 * registered temporary file under its name (t).  Never replaces a file
 * at `path`.  0, or -1 with errno: EEXIST when `path` is there, t
 * untouched then.
 */
int rolling_owner_file_create(struct rolling_tempfile *t, const char *path, int flags,
			      mode_t mode, const void *content, size_t len);

enum rolling_owner {
	ROLLING_OWNER_GONE = 0,     /* no such file, or it went while we looked */
	ROLLING_OWNER_DEAD = 1,     /* its owner is gone: the flock is ours now */
	ROLLING_OWNER_LIVING = 2,   /* held, or a draft too new to tell */
};

/*
 * Whose is the owner file (or draft) at `path`?  Waits up to `wait_ms`
 * milliseconds for a flock held (a dying run's child may be finishing).
 * ROLLING_OWNER_DEAD with *fd holding the flock on the file still at
 * `path`: the caller reads it, undoes what it names, removes it, and
 * then closes *fd.  Otherwise *fd is -1.  An error other than ENOENT in
 * opening it is -1 with errno: leave the file alone.
 */
int rolling_owner_file_check(const char *path, long wait_ms, int *fd);

#endif
