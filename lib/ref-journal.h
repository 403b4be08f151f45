#ifndef ROLLING_REF_JOURNAL_H
#define ROLLING_REF_JOURNAL_H

#include <sys/types.h>
#include "strbuf.h"
#include "tempfile.h"

/*
 * What a ref transaction of the files backend (refs-files.c) leaves
 * if it is killed, written down while it runs so that the next run can
 * clean it up: a file <common git dir>/rolling-ref-tx.<pid>, held under
 * flock(2) by its run (the kernel lets go when the run dies), naming
 *
 *  - each lock file it takes, with the content it writes there: a lock
 *    that holds that content, or nothing yet, is the run's;
 *  - each reflog it appends to, with its length before, and the lock
 *    whose rename would have made the lines true: while that lock is
 *    still there, the lines record a move that did not happen.
 *
 * A ref's old file kept for the roll-back (<ref>.rolling-old.lock) goes
 * with its lock's record.  git takes a stale lock for another writer's
 * and asks for it to be removed by hand; these are removed because the
 * journal says whose they are and its owner is gone.
 */
struct rolling_ref_journal {
	struct rolling_tempfile file;   /* its descriptor holds the flock */
	struct strbuf records;
	size_t written;     /* of records, in the file */
};

#define ROLLING_REF_JOURNAL_INIT { ROLLING_TEMPFILE_INIT, STRBUF_INIT, 0 }

/* Where a transaction keeps the file a ref's rename replaces: <ref> and this. */
#define ROLLING_REF_OLD_SUFFIX ".rolling-old.lock"

/*
 * A reflog back to `size` bytes, or removed when `size` is -1 (it was
 * not there): how a transaction undoes its lines, and a sweep a dead
 * run's.  Returns 0 or -1 with errno.
 */
int rolling_reflog_cut(const char *log, off_t size);

/* Record that `lock` is to be taken and will hold `content`. */
void rolling_ref_journal_lock(struct rolling_ref_journal *j, const char *lock,
			      const char *content);

/*
 * Record that `log`, `size` bytes long now (-1: not there), is appended
 * to before `lock` is renamed.
 */
void rolling_ref_journal_log(struct rolling_ref_journal *j, const char *log, off_t size,
			     const char *lock);

/*
 * Write the records so far (the first call creates and flocks the file
 * in `common_dir`); 0 or a negative error naming the file.
 */
int rolling_ref_journal_write(struct rolling_ref_journal *j, const char *common_dir);

/* The transaction is over, whichever way: the file goes. */
void rolling_ref_journal_release(struct rolling_ref_journal *j);

/*
 * Clean up after every run whose journal is in `common_dir` and whose
 * owner is gone: the reflog lines of moves that did not happen are cut,
 * its locks and its old files removed, its journal last.  Quiet: what
 * cannot be removed stays, and git names it when it meets it.
 */
void rolling_ref_journal_sweep(const char *common_dir);

#endif
