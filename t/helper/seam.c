/*
 * A test seam that lives only in the test suite: LD_PRELOAD'ed into a
 * command, it runs $GIT_ROLLING_TEST_BEFORE_UPDATE with the shell just
 * before the command first creates, appends to (or renames away) a file
 * matching $GIT_ROLLING_TEST_SEAM_PATH, with open() or with fopen() to
 * write (an fnmatch pattern; by default the lock a
 * branch's writer takes: the branch's own, under refs/heads/ and ending in
 * .lock, or in a reftable repository the table stack's, which the git
 * update-ref that moves the branch takes, LD_PRELOAD being inherited:
 * after everything was decided and written and before the branch moves).  The test suite is then the
 * concurrent writer the compare-and-swap guards against.  With
 * $GIT_ROLLING_TEST_SEAM_AFTER set, the command runs just after the call
 * instead, the file there: a test that kills the command then kills it
 * holding that file.  The command finds the file in
 * $GIT_ROLLING_TEST_SEAM_FILE.  The installed programs have no such hook.
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

static int is_seam_path(const char *path)
{
	const char *pattern = getenv("GIT_ROLLING_TEST_SEAM_PATH");

	if (pattern && *pattern)
		return !fnmatch(pattern, path, 0);
	return !fnmatch("*/refs/heads/*.lock", path, 0) ||
	       !fnmatch("*/reftable/tables.list.lock", path, 0);
}

static void run_seam(const char *path, int flags)
{
	const char *command = getenv("GIT_ROLLING_TEST_BEFORE_UPDATE");

	const char *nth = getenv("GIT_ROLLING_TEST_SEAM_NTH");

	if (fired || !command || !*command || !(flags & (O_CREAT | O_APPEND)) ||
	    !is_seam_path(path))
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

static int runs_after(void)
{
	const char *after = getenv("GIT_ROLLING_TEST_SEAM_AFTER");

	return after && *after;
}

/* The call, with the command before it or (runs_after()) after it. */
static int call_real(const char *name, const char *path, int flags, mode_t mode)
{
	int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	int ret, saved;

	if (!runs_after())
		run_seam(path, flags);
	ret = real(path, flags, mode);
	saved = errno;
	if (runs_after())
		run_seam(path, flags);
	errno = saved;
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
	int ret, saved;

	if (!runs_after())
		run_seam(from, O_CREAT);
	ret = real(from, to);
	saved = errno;
	if (runs_after())
		run_seam(from, O_CREAT);
	errno = saved;
	return ret;
}

/*
 * A stream opened to write creates the file or appends to it, as open()
 * with those flags would; glibc's fopen() reaches the system call without
 * the open() above, so it is a seam of its own.
 */
static int stream_flags(const char *mode)
{
	if (mode[0] == 'w')
		return O_CREAT;
	return mode[0] == 'a' ? O_CREAT | O_APPEND : 0;
}

static FILE *call_real_stream(const char *name, const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) =
		(FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, name);
	FILE *ret;
	int saved;

	if (!runs_after())
		run_seam(path, stream_flags(mode));
	ret = real(path, mode);
	saved = errno;
	if (runs_after())
		run_seam(path, stream_flags(mode));
	errno = saved;
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
