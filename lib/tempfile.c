#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tempfile.h"

/*
 * One registered file.  The signal handler walks the list while the
 * main line may be about to change it: every change is made with the
 * fatal signals blocked, so that the handler finds the list as it was
 * before or after, never half changed, and never finds a path whose file
 * was not created yet, or was renamed away already.
 */
struct rolling_tempfile_entry {
	struct rolling_tempfile_entry *next;
	char *path;
	pid_t owner;                   /* a forked child's copy of the list is not its own */
	int flags;
	int is_dir;                    /* 2: a scratch directory, removed with what it holds */
	volatile sig_atomic_t kept;    /* a record for the next run (rolling_tempfile_keep()) */
};

static struct rolling_tempfile_entry *registered;   /* the newest first */

static const int fatal_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM };
#define NR_FATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

/* What each fatal signal did before our handler, put back to die of it. */
static struct sigaction action_before[NR_FATAL];
static int handler_installed;

/*
 * The processes started and not yet reaped.  A fixed table, as the
 * signal handler reads it: a run has a git or two running at a time.
 */
#define MAX_CHILDREN 32
static struct running_child {
	volatile pid_t pid;            /* 0: a free slot */
	pid_t owner;                   /* a forked child's copy is not its own */
} children[MAX_CHILDREN];

static unsigned hold_depth;
static sigset_t mask_before_hold;

static void fatal_signal_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NR_FATAL; i++)
		sigaddset(set, fatal_signals[i]);
}

static void block_fatal(sigset_t *old)
{
	sigset_t fatal;

	fatal_signal_set(&fatal);
	sigprocmask(SIG_BLOCK, &fatal, old);
}

static void restore_mask(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* --- the end of the process ------------------------------------------- */

/* How deep the removal of a scratch directory goes (rolling_tempfile_scratch_dir()). */
#define SCRATCH_DEPTH 8

/*
 * Remove `name` in the directory `at` with all it holds.  Called from
 * the signal handler: async-signal-safe, so it reads the directory with
 * getdents64() into a buffer on the stack rather than with readdir(),
 * which allocates; a symbolic link is removed, never followed.  A
 * directory read while its entries go may skip some: it is read again
 * until a reading removes nothing.  1 when `name` is gone.
 */
static int remove_tree_at(int at, const char *name, int depth)
{
	union { struct dirent64 align; char bytes[2048]; } buf;
	int fd, removed;
	ssize_t n, off;

	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	do {
		removed = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf.bytes, sizeof(buf))) > 0)
			for (off = 0; off < n; off += ((struct dirent64 *)(buf.bytes + off))->d_reclen) {
				const struct dirent64 *d = (const struct dirent64 *)(buf.bytes + off);

				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				if (d->d_type != DT_DIR && !unlinkat(fd, d->d_name, 0))
					removed = 1;
				else if ((d->d_type == DT_DIR || errno == EISDIR) &&
					 depth < SCRATCH_DEPTH)
					removed |= remove_tree_at(fd, d->d_name, depth + 1);
			}
	} while (removed);
	close(fd);
	return !unlinkat(at, name, AT_REMOVEDIR);
}

/* Remove the file or directory of `e`, as its kind says. */
static void remove_path(const struct rolling_tempfile_entry *e)
{
	if (e->is_dir == 2)
		remove_tree_at(AT_FDCWD, e->path, 1);
	else if (e->is_dir)
		rmdir(e->path);
	else
		unlink(e->path);
}

/*
 * Files first, then the files that name them, then directories, which
 * only go once what was in them is gone.
 */
static int removal_pass(const struct rolling_tempfile_entry *e)
{
	if (e->is_dir)
		return 2;
	return e->flags & ROLLING_TEMPFILE_LAST ? 1 : 0;
}

/*
 * Remove what is registered and not kept.  Async-signal-safe: it reads
 * the list and calls getpid(), unlink() and rmdir(), and what
 * remove_tree_at() calls, nothing else.  The descriptors are left open:
 * the process is ending.
 */
static void remove_registered(void)
{
	const struct rolling_tempfile_entry *e;
	pid_t self = getpid();
	int pass;

	for (pass = 0; pass <= 2; pass++)
		for (e = registered; e; e = e->next) {
			if (e->owner != self || e->kept || removal_pass(e) != pass)
				continue;
			remove_path(e);
		}
}

/*
 * Send each child of ours `signo`, then wait for each: a git stopped
 * by a signal removes its own locks before it dies, and one that is
 * gone can write nothing more.  Async-signal-safe: kill(), waitpid().
 */
static void end_children(int signo)
{
	pid_t self = getpid();
	size_t i;

	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i].pid > 0 && children[i].owner == self)
			kill(children[i].pid, signo);
	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i].pid > 0 && children[i].owner == self) {
			while (waitpid(children[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
			children[i].pid = 0;
		}
}

static void remove_at_exit(void)
{
	end_children(SIGTERM);
	remove_registered();
}

/*
 * The files go, then the signal is raised again with the disposition it
 * had before us (the default: the process ends), so that whoever waits
 * for the process sees it killed by that signal.  Raised from here it
 * stays pending, blocked while the handler runs, and is delivered the
 * moment the handler returns.
 */
static void remove_on_signal(int signo)
{
	int saved_errno = errno;
	size_t i;

	end_children(signo);
	remove_registered();
	for (i = 0; i < NR_FATAL; i++)
		if (fatal_signals[i] == signo)
			sigaction(signo, &action_before[i], NULL);
	raise(signo);
	errno = saved_errno;
}

/*
 * Once, at the first registration.  A signal the process ignores was
 * ignored on purpose by whoever started it (nohup): it stays ignored
 * rather than become one that removes our files and then does nothing.
 */
static void install_handler(void)
{
	struct sigaction sa;
	size_t i;

	if (handler_installed)
		return;
	handler_installed = 1;
	atexit(remove_at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_on_signal;
	/* One handler at a time: a second signal waits for the first to kill us. */
	fatal_signal_set(&sa.sa_mask);
	for (i = 0; i < NR_FATAL; i++) {
		if (sigaction(fatal_signals[i], NULL, &action_before[i]) < 0 ||
		    (!(action_before[i].sa_flags & SA_SIGINFO) &&
		     action_before[i].sa_handler == SIG_IGN))
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

/* --- the registry --------------------------------------------------------- */

static struct rolling_tempfile_entry *new_entry(const char *path, int flags)
{
	struct rolling_tempfile_entry *e = calloc(1, sizeof(*e));

	if (!e || !(e->path = strdup(path))) {
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	e->flags = flags;
	e->owner = getpid();
	return e;
}

static void free_entry(struct rolling_tempfile_entry *e)
{
	if (!e)
		return;
	free(e->path);
	free(e);
}

/* With the fatal signals blocked. */
static void add_entry(struct rolling_tempfile *t, struct rolling_tempfile_entry *e)
{
	install_handler();
	e->next = registered;
	registered = e;
	t->entry = e;
}

/* With the fatal signals blocked. */
static void remove_entry(struct rolling_tempfile_entry *e)
{
	struct rolling_tempfile_entry **p;

	for (p = &registered; *p; p = &(*p)->next)
		if (*p == e) {
			*p = e->next;
			return;
		}
}

/* How a file comes to be: opened, given a unique name, linked, or made a directory. */
struct creation {
	enum { CREATE_OPEN, CREATE_MKSTEMP, CREATE_LINK, CREATE_MKDTEMP } how;
	int open_flags;
	mode_t mode;
	const char *from;       /* CREATE_LINK: the file it is another name of */
};

static int make_file(struct rolling_tempfile *t, struct rolling_tempfile_entry *e,
		     const struct creation *c)
{
	switch (c->how) {
	case CREATE_OPEN:
		return t->fd = open(e->path, c->open_flags, c->mode);
	case CREATE_MKSTEMP:
		return t->fd = mkostemp(e->path, O_CLOEXEC);
	case CREATE_LINK:
		return link(c->from, e->path);
	case CREATE_MKDTEMP:
		return mkdtemp(e->path) ? 0 : -1;
	}
	errno = EINVAL;
	return -1;
}

/*
 * Every registered file is made here, and registered when it is made, in
 * one step as far as a signal can tell: never a file of ours that the
 * handler does not know, nor a path it knows whose file is another
 * process's (a lock we failed to take).  0, or -1 with errno.
 */
static int create_registered(struct rolling_tempfile *t, struct rolling_tempfile_entry *e,
			     const struct creation *c)
{
	sigset_t old;
	int made, saved;

	t->fd = -1;
	t->entry = NULL;
	if (!e)
		return -1;
	block_fatal(&old);
	made = make_file(t, e, c) >= 0;
	saved = errno;
	if (made)
		add_entry(t, e);
	restore_mask(&old);
	if (!made) {
		free_entry(e);
		errno = saved;
		return -1;
	}
	return 0;
}

int rolling_tempfile_create(struct rolling_tempfile *t, const char *path, int flags,
			    mode_t mode)
{
	struct creation c = { CREATE_OPEN, O_RDWR | O_CREAT | O_EXCL, mode, NULL };

	if (!(flags & ROLLING_TEMPFILE_INHERIT))
		c.open_flags |= O_CLOEXEC;
	return create_registered(t, new_entry(path, flags), &c);
}

int rolling_tempfile_link(struct rolling_tempfile *t, const char *from, const char *path,
			  int flags)
{
	struct creation c = { CREATE_LINK, 0, 0, from };

	return create_registered(t, new_entry(path, flags), &c);
}

int rolling_tempfile_mkstemp(struct rolling_tempfile *t, char *template)
{
	struct creation c = { CREATE_MKSTEMP, 0, 0, NULL };

	if (create_registered(t, new_entry(template, 0), &c) < 0)
		return -1;
	strcpy(template, t->entry->path);
	return 0;
}

/* A directory made from `template`, is_dir 1 (removed when empty) or 2 (scratch). */
static int make_dir(struct rolling_tempfile *t, char *template, int is_dir)
{
	struct creation c = { CREATE_MKDTEMP, 0, 0, NULL };
	struct rolling_tempfile_entry *e = new_entry(template, 0);

	if (e)
		e->is_dir = is_dir;
	if (create_registered(t, e, &c) < 0)
		return -1;
	strcpy(template, t->entry->path);
	return 0;
}

int rolling_tempfile_mkdtemp(struct rolling_tempfile *t, char *template)
{
	return make_dir(t, template, 1);
}

int rolling_tempfile_scratch_dir(struct rolling_tempfile *t, char *template)
{
	return make_dir(t, template, 2);
}

const char *rolling_tempfile_path(const struct rolling_tempfile *t)
{
	return t->entry ? t->entry->path : NULL;
}

int rolling_tempfile_is_registered(const struct rolling_tempfile *t)
{
	return t->entry != NULL;
}

FILE *rolling_tempfile_fdopen(struct rolling_tempfile *t, const char *mode)
{
	FILE *f = fdopen(t->fd, mode);

	if (f)
		t->fd = -1;
	return f;
}

int rolling_tempfile_close(struct rolling_tempfile *t)
{
	int fd = t->fd;

	if (fd < 0)
		return 0;
	t->fd = -1;
	return close(fd);
}

int rolling_tempfile_rename(struct rolling_tempfile *t, const char *to)
{
	struct rolling_tempfile_entry *e = t->entry;
	sigset_t old;
	int ok, saved;

	if (!e) {
		errno = ENOENT;
		return -1;
	}
	/* Renamed and forgotten at once: the path may be someone else's lock next. */
	block_fatal(&old);
	ok = !rename(e->path, to);
	saved = errno;
	if (ok)
		remove_entry(e);
	restore_mask(&old);
	if (!ok) {
		errno = saved;
		return -1;
	}
	free_entry(e);
	t->entry = NULL;
	return 0;
}

void rolling_tempfile_forget(struct rolling_tempfile *t)
{
	struct rolling_tempfile_entry *e = t->entry;
	sigset_t old;

	if (!e)
		return;
	block_fatal(&old);
	remove_entry(e);
	restore_mask(&old);
	free_entry(e);
	t->entry = NULL;
}

int rolling_tempfile_move(struct rolling_tempfile *t, const char *to)
{
	struct rolling_tempfile_entry *e = t->entry;
	char *new_path, *old_path;
	sigset_t old;
	int ok, saved;

	if (!e) {
		errno = ENOENT;
		return -1;
	}
	if (!(new_path = strdup(to))) {
		errno = ENOMEM;
		return -1;
	}
	block_fatal(&old);
	ok = !link(e->path, to);
	saved = errno;
	old_path = e->path;
	if (ok) {
		unlink(old_path);
		e->path = new_path;
	}
	restore_mask(&old);
	if (!ok) {
		free(new_path);
		errno = saved;
		return -1;
	}
	free(old_path);
	return 0;
}

void rolling_tempfile_keep(struct rolling_tempfile *t)
{
	if (t->entry)
		t->entry->kept = 1;
}

void rolling_tempfile_delete(struct rolling_tempfile *t)
{
	struct rolling_tempfile_entry *e = t->entry;
	sigset_t old;

	rolling_tempfile_close(t);
	if (!e)
		return;
	block_fatal(&old);
	remove_path(e);
	remove_entry(e);
	restore_mask(&old);
	free_entry(e);
	t->entry = NULL;
}

/* --- changes made whole ------------------------------------------------------ */

void rolling_tempfile_hold_signals(void)
{
	sigset_t old;

	block_fatal(&old);
	if (!hold_depth++)
		mask_before_hold = old;
}

void rolling_tempfile_release_signals(void)
{
	if (!hold_depth || --hold_depth)
		return;
	restore_mask(&mask_before_hold);
}

/* --- children ------------------------------------------------------------- */

int rolling_tempfile_spawnp(pid_t *pid, const char *file,
			    const posix_spawn_file_actions_t *actions,
			    char *const argv[], char *const envp[])
{
	posix_spawnattr_t attr;
	struct running_child *slot = NULL;
	sigset_t old;
	size_t i;
	int err;

	if ((err = posix_spawnattr_init(&attr)))
		return err;
	/* Started and registered in one step as far as a signal can tell. */
	block_fatal(&old);
	install_handler();
	for (i = 0; i < MAX_CHILDREN && !slot; i++)
		if (children[i].pid <= 0 || children[i].owner != getpid())
			slot = &children[i];
	if (!slot)
		err = EAGAIN;
	if (!err && !(err = posix_spawnattr_setsigmask(&attr, &old)) &&
	    !(err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK)) &&
	    !(err = posix_spawnp(pid, file, actions, &attr, argv, envp))) {
		slot->owner = getpid();
		slot->pid = *pid;
	}
	restore_mask(&old);
	posix_spawnattr_destroy(&attr);
	return err;
}

pid_t rolling_tempfile_waitpid(pid_t pid, int *status)
{
	siginfo_t info;
	sigset_t old;
	pid_t got;
	int saved = 0;
	size_t i;

	/*
	 * Wait for it to end without reaping it, then reap and forget it
	 * with the signals blocked: the handler never signals a pid that
	 * is free for another process.
	 */
	while (waitid(P_PID, pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	block_fatal(&old);
	while ((got = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	if (got < 0)
		saved = errno;
	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i].pid == pid && children[i].owner == getpid())
			children[i].pid = 0;
	restore_mask(&old);
	errno = saved;
	return got;
}
