/*
 * A test seam that lives only in the test suite: LD_PRELOAD'ed into a
 * command, it runs $GIT_ROLLING_TEST_BEFORE_UPDATE with the shell just
 * before the command creates, appends to (or renames away) a file
 * matching $GIT_ROLLING_TEST_SEAM_PATH, with open() or with fopen() to
 * write: the first such file, or the Nth with $GIT_ROLLING_TEST_SEAM_NTH
 * (each process counts its own, LD_PRELOAD being inherited).  The pattern
 * is an fnmatch one; by default the lock a branch's writer takes: the
 * branch's own, under refs/heads/ and ending in .lock, or in a reftable
 * repository the table stack's, which the git update-ref that moves the
 * branch takes: after everything was decided and written and before the
 * branch moves.  The test suite is then the concurrent writer the
 * compare-and-swap guards against.
 *
 * With $GIT_ROLLING_TEST_SEAM_AFTER set, the command runs just after the
 * call instead, the file there: a test that kills the command then kills
 * it holding that file.  With $GIT_ROLLING_TEST_SEAM_REMOVED set, the
 * files counted are those the command removes (unlink()) instead of
 * those it writes: a moment that writes nothing, such as the end of the
 * transfer of a fetch (lib-fetch.sh, fetch_seam), is one that removes a
 * file.  The command finds the file in $GIT_ROLLING_TEST_SEAM_FILE.
 *
 * The installed programs have no such hook: nothing in them runs a
 * command the environment names.
 *
 * The command finds the git-rolling-<cmd> program in $GIT_ROLLING_PID:
 * where git writes the refs (reftable), the seam fires in the git
 * update-ref that git rolling runs, whose $PPID is git rolling.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a call does to a file, of what the seam counts. */
enum seam_event { SEAM_NONE, SEAM_WRITE, SEAM_REMOVE };

static int fired, seen;

/* The first git-rolling-<cmd> the seam is loaded into names itself. */
__attribute__((constructor)) static void name_rolling_pid(void)
{
	char pid[32];

	if (getenv("GIT_ROLLING_PID") ||
	    strncmp(program_invocation_short_name, "git-rolling-", strlen("git-rolling-")))
		return;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	setenv("GIT_ROLLING_PID", pid, 1);
}

static int is_set(const char *name)
{
	const char *value = getenv(name);

	return value && *value;
}

static int is_seam_path(const char *path)
{
	const char *pattern = getenv("GIT_ROLLING_TEST_SEAM_PATH");

	if (pattern && *pattern)
		return !fnmatch(pattern, path, 0);
	return !fnmatch("*/refs/heads/*.lock", path, 0) ||
	       !fnmatch("*/reftable/tables.list.lock", path, 0);
}

static void run_seam(const char *path, enum seam_event event)
{
	const char *command = getenv("GIT_ROLLING_TEST_BEFORE_UPDATE");
	const char *nth = getenv("GIT_ROLLING_TEST_SEAM_NTH");
	enum seam_event counted = is_set("GIT_ROLLING_TEST_SEAM_REMOVED") ? SEAM_REMOVE : SEAM_WRITE;

	if (fired || !command || !*command || event != counted || !is_seam_path(path))
		return;
	/* $GIT_ROLLING_TEST_SEAM_NTH: at the Nth such file (default: the first) */
	if (++seen < (nth ? atoi(nth) : 1))
		return;
	fired = 1;
	/* The command itself is not to be interposed on; it is told the file. */
	unsetenv("LD_PRELOAD");
	setenv("GIT_ROLLING_TEST_SEAM_FILE", path, 1);
	if (system(command) != 0) {
		fprintf(stderr, "GIT_ROLLING_TEST_BEFORE_UPDATE failed\n");
		_exit(125);
	}
}

/*
 * The command where it runs: before the call (`after` 0) or, with
 * $GIT_ROLLING_TEST_SEAM_AFTER, after it (`after` 1), errno kept.
 */
static void seam_at(int after, const char *path, enum seam_event event)
{
	int saved = errno;

	if (is_set("GIT_ROLLING_TEST_SEAM_AFTER") == after)
		run_seam(path, event);
	errno = saved;
}

static enum seam_event open_event(int flags)
{
	return flags & (O_CREAT | O_APPEND) ? SEAM_WRITE : SEAM_NONE;
}

static int call_real(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	int ret;

	seam_at(0, path, open_event(flags));
	ret = real(path, flags, mode);
	seam_at(1, path, open_event(flags));
	return ret;
}

static mode_t mode_of(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_of(flags, ap);
	va_end(ap);
	return call_real("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_of(flags, ap);
	va_end(ap);
	return call_real("open64", path, flags, mode);
}

/* Renaming a lock into place is the moment a change becomes visible. */
int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) =
		(int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	int ret;

	seam_at(0, from, SEAM_WRITE);
	ret = real(from, to);
	seam_at(1, from, SEAM_WRITE);
	return ret;
}

int unlink(const char *path)
{
	int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	int ret;

	seam_at(0, path, SEAM_REMOVE);
	ret = real(path);
	seam_at(1, path, SEAM_REMOVE);
	return ret;
}

/*
 * A stream opened to write creates the file or appends to it, as open()
 * with those flags would; glibc's fopen() reaches the system call without
 * the open() above, so it is a seam of its own.
 */
static enum seam_event stream_event(const char *mode)
{
	return mode[0] == 'w' || mode[0] == 'a' ? SEAM_WRITE : SEAM_NONE;
}

static FILE *call_real_stream(const char *name, const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) =
		(FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, name);
	FILE *ret;

	seam_at(0, path, stream_event(mode));
	ret = real(path, mode);
	seam_at(1, path, stream_event(mode));
	return ret;
}

FILE *fopen(const char *path, const char *mode)
{
	return call_real_stream("fopen", path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	return call_real_stream("fopen64", path, mode);
}

/*
 * With $GIT_ROLLING_TEST_FAIL_ODB_ADD_BACKEND set, libgit2's
 * git_odb_add_backend() fails as it does when memory runs out, having
 * added nothing: the backend is still the caller's to free, which a run
 * under memcheck's leak check holds it to.  The types are libgit2's
 * pointers, which this file does not include.
 */
int git_odb_add_backend(void *odb, void *backend, int priority)
{
	int (*real)(void *, void *, int) =
		(int (*)(void *, void *, int))dlsym(RTLD_NEXT, "git_odb_add_backend");

	if (is_set("GIT_ROLLING_TEST_FAIL_ODB_ADD_BACKEND"))
		return -1;
	return real(odb, backend, priority);
}
