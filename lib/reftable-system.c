#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include "vendor/reftable/system.h"
#include "vendor/reftable/reftable-error.h"
#include "lockfile.h"
#include "tempfile.h"

/*
 * What git's reftable library (lib/vendor/reftable/) asks of the
 * project that embeds it (its system.h), as git's own reftable/system.c
 * gives it on git's tempfile.c and lockfile.c: here on tempfile.h and
 * lockfile.h, so that a table being written and the tables.list.lock of
 * a stack are registered temporary files, removed when the process ends
 * without committing them, killed or not.  Each returns 0 or one of the
 * library's error codes (reftable-error.h), as system.h says.
 *
 * git-rolling only reads tables through the library (refdb-reftable.c);
 * the writing half serves the test helper that crafts tables
 * (t/helper/test-reftable.c).
 */

/* --- random numbers, time, mmap ---------------------------------------------- */

/* For the backoff of a stack reloaded under a writer, and table names. */
uint32_t reftable_rand(void)
{
	static uint64_t state;
	struct timespec now;
	uint32_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	/* No entropy yet (early boot): xorshift seeded from the clock and pid. */
	if (!state) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		state = ((uint64_t)now.tv_nsec << 20) ^ (uint64_t)now.tv_sec ^
			((uint64_t)getpid() << 40) ^ 1;
	}
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 16);
}

uint64_t reftable_time_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
}

/*
 * The smallest table: a version 1 header (24 bytes) and footer (68).
 * The library maps nothing but tables.
 */
#define MIN_TABLE_SIZE (24 + 68)

/*
 * A table is mapped whole.  One too short to hold a header and a footer
 * is refused here, as not a table: git 2.55's reftable_table_new() takes
 * the footer of a file of 29 to 67 bytes from before its start (the
 * size less the footer's wraps around) and crashes, as git does on it.
 * So does a file of no size (a link to /dev/zero, whose size says 0),
 * which is never read from.
 */
int reftable_mmap(struct reftable_mmap *out, int fd, size_t len)
{
	void *data;

	if (len < MIN_TABLE_SIZE)
		return REFTABLE_FORMAT_ERROR;
	if ((data = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return REFTABLE_IO_ERROR;
	out->data = data;
	out->size = len;
	out->priv = NULL;
	return 0;
}

int reftable_munmap(struct reftable_mmap *mmap)
{
	if (munmap(mmap->data, mmap->size) < 0)
		return REFTABLE_IO_ERROR;
	memset(mmap, 0, sizeof(*mmap));
	return 0;
}

/* --- temporary files: a table being written ------------------------------------ */

int tmpfile_from_pattern(struct reftable_tmpfile *out, const char *pattern)
{
	struct rolling_tempfile *t = malloc(sizeof(*t));
	char *template = strdup(pattern);
	int err = 0;

	if (!t || !template) {
		err = REFTABLE_OUT_OF_MEMORY_ERROR;
	} else {
		*t = (struct rolling_tempfile)ROLLING_TEMPFILE_INIT;
		if (rolling_tempfile_mkstemp(t, template) < 0)
			err = REFTABLE_IO_ERROR;
	}
	free(template);
	if (err) {
		free(t);
		return err;
	}
	out->path = rolling_tempfile_path(t);
	out->fd = t->fd;
	out->priv = t;
	return 0;
}

int tmpfile_close(struct reftable_tmpfile *t)
{
	int err = t->priv ? rolling_tempfile_close(t->priv) : 0;

	t->fd = -1;
	return err < 0 ? REFTABLE_IO_ERROR : 0;
}

static void tmpfile_forget(struct reftable_tmpfile *t)
{
	free(t->priv);
	*t = REFTABLE_TMPFILE_INIT;
}

int tmpfile_delete(struct reftable_tmpfile *t)
{
	if (!t->priv)
		return 0;
	rolling_tempfile_delete(t->priv);
	tmpfile_forget(t);
	return 0;
}

/* As git's rename_tempfile(): renamed or removed, never left behind. */
int tmpfile_rename(struct reftable_tmpfile *t, const char *path)
{
	struct rolling_tempfile *file = t->priv;
	int err = 0;

	if (!file)
		return REFTABLE_API_ERROR;
	if (rolling_tempfile_close(file) < 0 || rolling_tempfile_rename(file, path) < 0) {
		rolling_tempfile_delete(file);
		err = REFTABLE_IO_ERROR;
	}
	tmpfile_forget(t);
	return err;
}

/* --- locks: tables.list.lock, and a table's while it is compacted ---------------- */

/*
 * <target>.lock, waited for up to timeout_ms (a negative timeout: as
 * long as it takes).  REFTABLE_LOCK_ERROR when another process holds it.
 */
int flock_acquire(struct reftable_flock *l, const char *target_path, long timeout_ms)
{
	struct rolling_lock *lk = malloc(sizeof(*lk));

	if (!lk)
		return REFTABLE_OUT_OF_MEMORY_ERROR;
	*lk = (struct rolling_lock)ROLLING_LOCK_INIT;
	if (rolling_lock_acquire(lk, target_path, timeout_ms < 0 ? LONG_MAX : timeout_ms) < 0) {
		int locked = errno == EEXIST;

		free(lk);
		return locked ? REFTABLE_LOCK_ERROR : REFTABLE_IO_ERROR;
	}
	l->fd = rolling_lock_fd(lk);
	l->path = rolling_lock_path(lk);
	l->priv = lk;
	return 0;
}

int flock_close(struct reftable_flock *l)
{
	int err;

	if (!l->priv)
		return REFTABLE_API_ERROR;
	err = rolling_lock_close(l->priv);
	l->fd = -1;
	return err < 0 ? REFTABLE_IO_ERROR : 0;
}

static void flock_forget(struct reftable_flock *l)
{
	free(l->priv);
	*l = REFTABLE_FLOCK_INIT;
}

int flock_release(struct reftable_flock *l)
{
	if (!l->priv)
		return 0;
	rolling_lock_rollback(l->priv);
	flock_forget(l);
	return 0;
}

/* As git's commit_lock_file(): committed or rolled back, never left held. */
int flock_commit(struct reftable_flock *l)
{
	struct rolling_lock *lk = l->priv;
	int err = 0;

	if (!lk)
		return REFTABLE_API_ERROR;
	if (rolling_lock_commit(lk) < 0) {
		rolling_lock_rollback(lk);
		err = REFTABLE_IO_ERROR;
	}
	flock_forget(l);
	return err;
}
