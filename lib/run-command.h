#ifndef ROLLING_RUN_COMMAND_H
#define ROLLING_RUN_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Running git as a child process, for the commands that drive git's
 * own state (git bisect) rather than read the object store: an argument
 * vector is handed to posix_spawnp(), never a shell, so nothing a user
 * typed is ever interpreted twice.
 */

enum rolling_run_flags {
	ROLLING_RUN_CAPTURE = 1 << 0,    /* collect stdout in *out */
	ROLLING_RUN_NO_STDOUT = 1 << 1,  /* send stdout to /dev/null */
	ROLLING_RUN_NO_STDERR = 1 << 2,  /* send stderr to /dev/null */
	ROLLING_RUN_STDOUT_TO_STDERR = 1 << 3,
	ROLLING_RUN_STDERR_TO_STDOUT = 1 << 4,  /* with CAPTURE: collect both */
};

/*
 * Run `git args[0] args[1] ...` (args is NULL-terminated and does not
 * include "git") from the current directory with the current
 * environment, and wait for it.  Returns its exit status (0-255, or 128
 * plus the signal number when a signal ended it), or a negative error
 * when it could not be run at all.  With ROLLING_RUN_CAPTURE, *out is
 * a NUL-terminated string the caller frees (also when the status is
 * not 0); otherwise out may be NULL.
 */
int rolling_run_git(const char *const *args, char **out, unsigned flags);

/* rolling_run_git() with its standard input read from the file `stdin_path`. */
int rolling_run_git_with_stdin(const char *const *args, const char *stdin_path, char **out,
			       unsigned flags);

/*
 * The same with the entries of `env` (NULL-terminated) applied to our
 * environment for git: "NAME=value" sets NAME, "NAME" alone removes it.
 */
int rolling_run_git_env(const char *const *args, const char *const *env, char **out,
			unsigned flags);
int rolling_run_git_env_with_stdin(const char *const *args, const char *const *env,
				   const char *stdin_path, char **out, unsigned flags);

/*
 * rolling_run_git_env_with_stdin() with our descriptor `inherit_fd`
 * (above 2) open in git under the same number, and so in what git
 * starts in turn, while ours stays close-on-exec: no other child gets
 * it.  For a lock whose flock(2) must be held as long as the child, or
 * a process of its own, lives (quarantine.h).
 */
int rolling_run_git_inheriting(const char *const *args, const char *const *env,
			       const char *stdin_path, int inherit_fd, unsigned flags);

/*
 * The same, with `input` (input_len bytes) on git's standard input when
 * it is not NULL, and, when `err_out` is not NULL, what git writes to
 * its standard error collected apart in *err_out (NUL-terminated; the
 * caller frees it, as *out), for a caller that reads git's words
 * rather than showing them.
 */
int rolling_run_git_io(const char *const *args, const char *const *env, const char *input,
		       size_t input_len, char **out, char **err_out, unsigned flags);

/*
 * rolling_run_git_io() running the program args[0] (looked up on PATH)
 * in place of git: for what git's configuration names and git runs
 * itself, as gpg.program and gpg.ssh.program, when git offers no
 * command that runs it for us (signature.h).
 */
int rolling_run_program_io(const char *const *args, const char *const *env, const char *input,
			   size_t input_len, char **out, char **err_out, unsigned flags);

/*
 * The entries of such an `env`, grown one at a time: `v` is always
 * NULL-terminated (or NULL while empty), and owns its strings.
 */
struct rolling_env {
	char **v;
	size_t nr, alloc;
};
#define ROLLING_ENV_INIT { NULL, 0, 0 }

/* Add "NAME=value", or "NAME" (remove it) when value is NULL. */
int rolling_env_add(struct rolling_env *env, const char *name, const char *value);
void rolling_env_release(struct rolling_env *env);

/*
 * rolling_run_git() with ROLLING_RUN_CAPTURE, with the length of what git
 * printed in *len: for output that holds NUL bytes (-z).
 */
int rolling_run_git_capture(const char *const *args, char **out, size_t *len);

/*
 * Start `git args...` with its standard output on a pipe, whose end we
 * read from is *fd, and return at once, so that git works while the
 * caller does; rolling_finish_reading() reads all it wrote into *out
 * (NUL-terminated, of *len bytes when len is not NULL; the caller frees
 * it, NULL on an error), closes fd and returns the exit status as
 * rolling_run_git() does (`what` names it in errors).  Output that fills
 * the pipe blocks git until it is read.  rolling_abandon_reading() ends
 * git (SIGTERM) and reaps it instead.
 */
int rolling_start_git_reading(pid_t *pid, int *fd, const char *const *args);
int rolling_finish_reading(pid_t pid, int fd, char **out, size_t *len, const char *what);
void rolling_abandon_reading(pid_t pid, int fd);

/*
 * git's own words in what it wrote to its standard error, `said`
 * (changed in place; NULL reads as nothing said): from the line that
 * begins "fatal: " on, without that prefix and the newlines that end
 * it; without such a line, the last line that is not empty.  One place
 * reads git's error text, and each caller says how much of it it
 * shows: all of it (a refusal with git's hint), its first line, or its
 * lines joined with single spaces (git's "found:\n\trefstorage").  ""
 * when git said nothing.
 */
enum rolling_git_words {
	ROLLING_GIT_WORDS_ALL,
	ROLLING_GIT_WORDS_LINE,
	ROLLING_GIT_WORDS_JOINED,
};
const char *rolling_git_words(char *said, enum rolling_git_words how);

/* 1 when git's words hold a line that begins "fatal: ": git refused. */
int rolling_git_said_fatal(const char *said);

/*
 * The first line of what `git args...` prints, without the newline, in
 * *line (the caller frees it).  Non-zero exit statuses are errors.
 */
int rolling_git_output(char **line, const char *const *args);

#endif
