#ifndef ROLLING_TEMPFILE_H
#define ROLLING_TEMPFILE_H

#include <spawn.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * The files a run creates that must not outlive it: locks, drafts that
 * are renamed into place, probes.  Each is registered from its creation
 * until it is renamed away or removed; whatever is still registered when
 * the process ends is removed, on exit() as on a fatal signal (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGPIPE), as git's tempfile.c does.
 *
 * The signal handler is installed with the first registration.  It only
 * unlinks (or rmdirs) paths prepared beforehand, then lets the signal
 * end the process as it would have, so that the exit status still says
 * which signal it was.  A signal the process was started ignoring (under
 * nohup, say) stays ignored.  A process forked from ours removes nothing
 * of ours.
 *
 * A scratch directory (rolling_tempfile_scratch_dir()) goes with all that
 * is in it, whoever wrote it there; any other directory only when empty.
 *
 * Some files are records for the next run rather than leftovers: once a
 * file is one (rolling_tempfile_keep()), it is left where it is, for
 * the next run to finish or undo what this one began.  Some changes
 * cannot be undone by unlinking alone: those are made with the signals
 * held (rolling_tempfile_hold_signals()).
 */

enum rolling_tempfile_flags {
	/*
	 * Not closed on exec: a git that we run holds its flock(2) with us,
	 * and the file stays locked as long as either lives.
	 */
	ROLLING_TEMPFILE_INHERIT = 1 << 0,
	/*
	 * It names other registered files (a journal): at the end it is
	 * removed after every file that is not so marked, so that a run
	 * killed while removing them still leaves it naming the rest.
	 */
	ROLLING_TEMPFILE_LAST = 1 << 1,
};

struct rolling_tempfile_entry;

struct rolling_tempfile {
	int fd;                                 /* -1 when closed, or none */
	struct rolling_tempfile_entry *entry;   /* NULL once no longer registered */
};

#define ROLLING_TEMPFILE_INIT { -1, NULL }

/*
 * Create `path` (exclusively, with `mode`), open for reading and writing,
 * and register it; `flags` of rolling_tempfile_flags.  0, or -1 with
 * errno (EEXIST when it is there already).
 */
int rolling_tempfile_create(struct rolling_tempfile *t, const char *path, int flags,
			    mode_t mode);

/*
 * Make `path` a second name of the file `from` (link(2)) and register
 * it, without opening it: a file kept aside while its first name is
 * replaced.  0, or -1 with errno.
 */
int rolling_tempfile_link(struct rolling_tempfile *t, const char *from, const char *path,
			  int flags);

/*
 * Create a directory from `template` as mkdtemp(3) does, the name it
 * got written back into `template`, and register it: at the end it is
 * removed if it is empty by then (it is not emptied: what is in it is
 * left to its owner's next run).  0, or -1 with errno.
 */
int rolling_tempfile_mkdtemp(struct rolling_tempfile *t, char *template);

/*
 * The same, for scratch space of this run alone (objects written for a
 * git that we run to read): at the end it is removed with all that is in
 * it, as it is by rolling_tempfile_delete().  The removal never follows
 * a symbolic link out of it, and goes at most eight levels down, deeper
 * than anything a run writes there.  0, or -1 with errno.
 */
int rolling_tempfile_scratch_dir(struct rolling_tempfile *t, char *template);

/*
 * Create a file from `template` as mkstemp(3) does (close-on-exec), the
 * name it got written back into `template`, and register it.  0, or -1
 * with errno.
 */
int rolling_tempfile_mkstemp(struct rolling_tempfile *t, char *template);

/* Its name, NULL when it is no longer registered. */
const char *rolling_tempfile_path(const struct rolling_tempfile *t);

/* 1 while it is registered. */
int rolling_tempfile_is_registered(const struct rolling_tempfile *t);

/*
 * A stream on its descriptor, which the stream then owns: fclose() it
 * instead of rolling_tempfile_close().  NULL with errno.
 */
FILE *rolling_tempfile_fdopen(struct rolling_tempfile *t, const char *mode);

/* Close its descriptor, if open; it stays registered.  0, or -1 with errno. */
int rolling_tempfile_close(struct rolling_tempfile *t);

/*
 * Rename it to `to` (replacing any file there) and stop tracking it: it
 * is no longer ours to remove.  The descriptor stays open (a flock it
 * holds goes on).  0, or -1 with errno, still registered.
 */
int rolling_tempfile_rename(struct rolling_tempfile *t, const char *to);

/*
 * Give it the name `to` instead, never replacing a file there (link(2),
 * then unlink(2) of the old name): it appears under `to` whole, and
 * stays registered under that name.  0, or -1 with errno (EEXIST when
 * `to` is there), with the old name kept.
 */
int rolling_tempfile_move(struct rolling_tempfile *t, const char *to);

/*
 * Stop tracking it where it is, the descriptor still open (a flock it
 * holds goes on): no longer ours to remove at the end.
 */
void rolling_tempfile_forget(struct rolling_tempfile *t);

/*
 * From now on it is a record for the next run: left in place when the
 * process ends without rolling_tempfile_delete().
 */
void rolling_tempfile_keep(struct rolling_tempfile *t);

/*
 * Close it and remove it (a directory only when empty, a scratch directory
 * with all it holds), if it is still
 * registered; then it is no longer.  Safe on one never created.
 */
void rolling_tempfile_delete(struct rolling_tempfile *t);

/*
 * While held, the fatal signals wait: one that comes meanwhile ends the
 * process at the release, having removed what is registered then.  For
 * changes that unlinking files cannot undo (a ref renamed into place
 * after its reflog lines were appended; a branch moved before its work
 * tree's index): made between the two calls, they are made whole or not
 * at all.  Held signals are held in the git commands started meanwhile
 * too (the mask is inherited), which then finish their part.  The calls
 * nest; keep what is held short.
 */
void rolling_tempfile_hold_signals(void);
void rolling_tempfile_release_signals(void);

/*
 * The processes a run starts end with it, as git's run-command.c ends
 * its children (clean_on_exit, wait_after_clean): each is registered
 * from its start until it is waited for, and on a fatal signal it is
 * sent the same signal and waited for before the registered files are
 * removed, so that no git still running re-creates a lock (index.lock,
 * a quarantine) that the run's handler removed.  At exit() one still
 * running (a reader given up on) is sent SIGTERM and waited for.
 */

/*
 * posix_spawnp(), the process registered as it starts.  The child starts
 * with the signal mask the caller had (held signals stay held in it).
 * 0, or an errno value.
 */
int rolling_tempfile_spawnp(pid_t *pid, const char *file,
			    const posix_spawn_file_actions_t *actions,
			    char *const argv[], char *const envp[]);

/*
 * waitpid(pid, status, 0) for a process of rolling_tempfile_spawnp(),
 * which is no longer registered once it is reaped; -1 with errno (never
 * EINTR).
 */
pid_t rolling_tempfile_waitpid(pid_t pid, int *status);

#endif
