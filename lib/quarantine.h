#ifndef ROLLING_QUARANTINE_H
#define ROLLING_QUARANTINE_H

#include <git2.h>
#include "run-command.h"
#include "tempfile.h"

/*
 * An object quarantine, as git's receive-pack keeps one for a push: a
 * private object directory inside the repository's objects/ where a
 * fetch writes what the server sends.  Nothing outside it refers to it
 * and git does not read it (it is nobody's alternate), so until
 * rolling_quarantine_migrate() moves its objects into the object store,
 * no ref, no command and no gc can see them; removing it takes them all
 * away.
 *
 * Its owner holds an flock() on a file inside it for as long as it
 * lives.  The kernel drops that lock when the process dies, kill -9
 * included, which is how the next rolling_quarantine_create() knows a
 * quarantine was left behind and removes it.
 *
 * The git that writes into it holds the lock too: it inherits the
 * owner file's descriptor (struct rolling_child's inherit_fd), and so do the
 * processes it starts (git index-pack), git closing none.  The lock
 * belongs to the open file description, which lives until the last of
 * them closes it.  An owner killed alone (kill -9 of its pid, not of
 * its group) leaves its git fetch running, writing: its quarantine
 * then stays until that git ends too, and the run after removes it.
 * Were it removed while git writes, git would make it again (git
 * creates the leading directories of each file it writes), without an
 * owner file, which is taken for abandoned only after a while.
 * Not PR_SET_PDEATHSIG: that needs a fork() of our own instead of
 * posix_spawnp() (tempfile.h registers every child as it starts), is
 * sent at the death of the thread that started git, and only to git
 * itself, not to the git index-pack it runs, which would write on.
 */
struct rolling_quarantine {
	char *objects;     /* the repository's object directory */
	char *path;        /* <objects>/rolling-incoming-XXXXXX */
	/*
	 * It, registered (tempfile.h): a run killed before its owner file
	 * is in place leaves nothing; after, the next run removes it.
	 */
	struct rolling_tempfile dir;
	/* of the owner file, holding its flock; close-on-exec */
	int lock_fd;
};

#define ROLLING_QUARANTINE_INIT { NULL, NULL, ROLLING_TEMPFILE_INIT, -1 }

/*
 * Remove the quarantines that dead processes left behind, then create
 * one for this process.  Returns 0 or a negative error.
 */
int rolling_quarantine_create(struct rolling_quarantine *q, git_repository *repo);

/* Let `repo` (this process) read the quarantined objects. */
int rolling_quarantine_add_to(const struct rolling_quarantine *q, git_repository *repo);

/*
 * The environment of a git child that writes into the quarantine (git
 * fetch: its objects go there, and it finds the repository's as an
 * alternate), added to `env` for a struct rolling_child that inherits
 * `lock_fd`; absolute paths, since git may change directory before it
 * reads them.
 */
int rolling_quarantine_writer_env(struct rolling_strvec *env, const struct rolling_quarantine *q);

/*
 * Move every object into the object store: loose objects to their
 * fan-out directory (an object already there is kept), packs with the
 * .idx last, so that a reader never finds an index without its pack
 * (or, in a partial clone, without its .promisor mark).
 * After this the objects are in the store but still unreferenced.
 */
int rolling_quarantine_migrate(struct rolling_quarantine *q);

/* Remove the quarantine and what is left in it, and release its lock. */
void rolling_quarantine_destroy(struct rolling_quarantine *q);

#endif
