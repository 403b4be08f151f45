#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run-command.h"
#include "alloc.h"
#include "error.h"
#include "fd-io.h"
#include "strbuf.h"
#include "tempfile.h"

extern char **environ;

/* Read everything from fd into a NUL-terminated string of *len bytes (len may be NULL). */
static int read_all(int fd, char **out, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t read_len;
	int err = 0;

	if (strbuf_read_fd(&sb, fd) < 0) {
		err = strbuf_oom(&sb) ? rolling_error_nomem() :
		      rolling_error("cannot read the output of git: %s", strerror(errno));
	} else {
		read_len = sb.len;
		if (!(*out = strbuf_detach(&sb)))
			err = rolling_error_nomem();
		else if (len)
			*len = read_len;
	}
	strbuf_release(&sb);
	return err;
}

static int wait_for(pid_t pid, const char *what)
{
	int status;

	if (rolling_tempfile_waitpid(pid, &status) < 0)
		return rolling_error("cannot wait for git %s: %s", what, strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return rolling_error("git %s ended abnormally", what);
}

int rolling_finish_reading(pid_t pid, int fd, char **out, size_t *len, const char *what)
{
	int read_err, status;

	*out = NULL;
	read_err = read_all(fd, out, len);

	/* Unblock the child should we have stopped reading early. */
	close(fd);
	status = wait_for(pid, what);
	if (read_err < 0 && status >= 0)
		status = read_err;
	if (status < 0) {
		free(*out);
		*out = NULL;
	}
	return status;
}

/* "git" followed by args, NULL-terminated, in memory the caller frees. */
/*
 * Not a flag of the header's: rolling_run_program_io() runs args[0]
 * itself rather than git.
 */
#define RUN_PROGRAM (1u << 30)

static const char **git_argv(const char *const *args, unsigned flags)
{
	const char **argv;
	size_t nr = 0, i, skip = !(flags & RUN_PROGRAM);

	while (args[nr])
		nr++;
	if (!(argv = calloc(nr + 2, sizeof(*argv))))
		return NULL;
	argv[0] = "git";
	for (i = 0; i < nr; i++)
		argv[i + skip] = args[i];
	return argv;
}

int rolling_env_add(struct rolling_env *env, const char *name, const char *value)
{
	char *entry;

	if (value ? asprintf(&entry, "%s=%s", name, value) < 0 : !(entry = strdup(name)))
		return rolling_error_nomem();
	if (ALLOC_GROW(env->v, env->nr + 2, env->alloc) < 0) {
		free(entry);
		return ROLLING_ERROR;
	}
	env->v[env->nr++] = entry;
	env->v[env->nr] = NULL;
	return 0;
}

void rolling_env_release(struct rolling_env *env)
{
	size_t i;

	for (i = 0; i < env->nr; i++)
		free(env->v[i]);
	free(env->v);
	env->v = NULL;
	env->nr = env->alloc = 0;
}

/* The length of the name of "NAME=value", or of "NAME". */
static size_t env_name_len(const char *entry)
{
	return strchrnul(entry, '=') - entry;
}

/*
 * Our environment with `env` on top, in memory the caller frees (not the
 * strings): "NAME=value" sets NAME, "NAME" alone removes it.
 */
static char **child_environ(const char *const *env)
{
	size_t nr = 0, extra = 0, i, j;
	char **out;

	while (environ[nr])
		nr++;
	while (env && env[extra])
		extra++;
	if (!(out = calloc(nr + extra + 1, sizeof(*out))))
		return NULL;
	for (i = j = 0; i < nr; i++) {
		size_t k, len = env_name_len(environ[i]);

		for (k = 0; k < extra; k++)
			if (env_name_len(env[k]) == len && !strncmp(env[k], environ[i], len))
				break;
		if (k == extra)
			out[j++] = environ[i];
	}
	/* environ is char **, but posix_spawnp() writes to none of its strings. */
	for (i = 0; i < extra; i++)
		if (strchr(env[i], '='))
			out[j++] = (char *)(uintptr_t)env[i];
	return out;
}

/* Where a child's standard input and error come from and go, besides the flags. */
struct child_io {
	const char *stdin_path;     /* open this as its stdin */
	int stdin_fd;               /* else this, when >= 0 */
	int stderr_fd;              /* its stderr, when >= 0 */
	int inherit_fd;             /* left open in it, when >= 0 */
};

static int rolling_run_git_full(const char *const *args, const char *const *env,
				const struct child_io *io, char **out, size_t *len, unsigned flags);

static int run_with_stdin_path(const char *const *args, const char *const *env,
			       const char *stdin_path, char **out, unsigned flags)
{
	struct child_io io = { stdin_path, -1, -1, -1 };

	return rolling_run_git_full(args, env, &io, out, NULL, flags);
}

int rolling_run_git(const char *const *args, char **out, unsigned flags)
{
	return run_with_stdin_path(args, NULL, NULL, out, flags);
}

int rolling_run_git_env(const char *const *args, const char *const *env, char **out,
			unsigned flags)
{
	return run_with_stdin_path(args, env, NULL, out, flags);
}

int rolling_run_git_with_stdin(const char *const *args, const char *stdin_path, char **out,
			       unsigned flags)
{
	return run_with_stdin_path(args, NULL, stdin_path, out, flags);
}

int rolling_run_git_env_with_stdin(const char *const *args, const char *const *env,
				   const char *stdin_path, char **out, unsigned flags)
{
	return run_with_stdin_path(args, env, stdin_path, out, flags);
}

int rolling_run_git_inheriting(const char *const *args, const char *const *env,
			       const char *stdin_path, int inherit_fd, unsigned flags)
{
	struct child_io io = { stdin_path, -1, -1, inherit_fd };

	if (inherit_fd <= 2)
		return rolling_error("cannot run git %s: no descriptor to hand on", args[0]);
	return rolling_run_git_full(args, env, &io, NULL, NULL, flags);
}

int rolling_run_git_capture(const char *const *args, char **out, size_t *len)
{
	struct child_io io = { NULL, -1, -1, -1 };

	return rolling_run_git_full(args, NULL, &io, out, len, ROLLING_RUN_CAPTURE);
}

/* An anonymous file holding `data`, read from its start; -1 with a message on errors. */
static int memory_file(const char *name, const char *data, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0) {
		rolling_error("cannot create a temporary file: %s", strerror(errno));
		return -1;
	}
	if ((len && rolling_write_all(fd, data, len) < 0) || lseek(fd, 0, SEEK_SET) < 0) {
		rolling_error("cannot write a temporary file: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int rolling_run_program_io(const char *const *args, const char *const *env, const char *input,
			   size_t input_len, char **out, char **err_out, unsigned flags)
{
	return rolling_run_git_io(args, env, input, input_len, out, err_out, flags | RUN_PROGRAM);
}

int rolling_run_git_io(const char *const *args, const char *const *env, const char *input,
		       size_t input_len, char **out, char **err_out, unsigned flags)
{
	struct child_io io = { NULL, -1, -1, -1 };
	int status;

	if (err_out)
		*err_out = NULL;
	if (input && (io.stdin_fd = memory_file("git-rolling-stdin", input, input_len)) < 0)
		return ROLLING_ERROR;
	if (err_out && (io.stderr_fd = memory_file("git-rolling-stderr", NULL, 0)) < 0) {
		status = ROLLING_ERROR;
		goto out;
	}
	status = rolling_run_git_full(args, env, &io, out, NULL, flags);
	if (err_out && status >= 0) {
		struct strbuf sb = STRBUF_INIT;

		if (lseek(io.stderr_fd, 0, SEEK_SET) < 0 || strbuf_read_fd(&sb, io.stderr_fd) < 0 ||
		    !(*err_out = strbuf_detach(&sb))) {
			strbuf_release(&sb);
			if (out) {
				free(*out);
				*out = NULL;
			}
			status = rolling_error("cannot read what git %s said: %s", args[0],
					       strerror(errno));
		}
	}
out:
	if (io.stdin_fd >= 0)
		close(io.stdin_fd);
	if (io.stderr_fd >= 0)
		close(io.stderr_fd);
	return status;
}

/* Run git with `env` on top of our environment and the standard files of `io`, each optional. */
static int rolling_run_git_full(const char *const *args, const char *const *env,
				const struct child_io *io, char **out, size_t *len, unsigned flags)
{
	char **envp = NULL;
	const char **argv;
	posix_spawn_file_actions_t actions;
	int pipefd[2] = { -1, -1 };
	int err, status;
	pid_t pid;

	if (out)
		*out = NULL;
	if (!(argv = git_argv(args, flags)))
		return rolling_error_nomem();
	if (env && !(envp = child_environ(env))) {
		free(argv);
		return rolling_error_nomem();
	}
	if ((flags & ROLLING_RUN_CAPTURE) && pipe2(pipefd, O_CLOEXEC) < 0) {
		free(argv);
		free(envp);
		return rolling_error("cannot create a pipe: %s", strerror(errno));
	}
	if ((err = posix_spawn_file_actions_init(&actions))) {
		status = rolling_error("cannot run git: %s", strerror(err));
		goto close_pipe;
	}
	if (flags & ROLLING_RUN_CAPTURE)
		err = posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
	else if (flags & ROLLING_RUN_NO_STDOUT)
		err = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	else if (flags & ROLLING_RUN_STDOUT_TO_STDERR)
		err = posix_spawn_file_actions_adddup2(&actions, 2, 1);
	if (!err && io->stderr_fd >= 0)
		err = posix_spawn_file_actions_adddup2(&actions, io->stderr_fd, 2);
	else if (!err && (flags & ROLLING_RUN_NO_STDERR))
		err = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	else if (!err && (flags & ROLLING_RUN_STDERR_TO_STDOUT))
		err = posix_spawn_file_actions_adddup2(&actions, 1, 2);
	if (!err && io->stdin_path)
		err = posix_spawn_file_actions_addopen(&actions, 0, io->stdin_path, O_RDONLY, 0);
	else if (!err && io->stdin_fd >= 0)
		err = posix_spawn_file_actions_adddup2(&actions, io->stdin_fd, 0);
	/*
	 * A dup2 onto itself clears close-on-exec, in the child alone
	 * (POSIX.1-2024, glibc since 2.29): ours never leaks to another.
	 */
	if (!err && io->inherit_fd >= 0)
		err = posix_spawn_file_actions_adddup2(&actions, io->inherit_fd, io->inherit_fd);
	if (err) {
		posix_spawn_file_actions_destroy(&actions);
		status = rolling_error("cannot run git: %s", strerror(err));
		goto close_pipe;
	}
	/* What we printed must come before what git prints. */
	fflush(NULL);
	/* Its char *const[] predates const; posix_spawnp() writes to no argument. */
	err = rolling_tempfile_spawnp(&pid, argv[0], &actions, (char *const *)(uintptr_t)argv,
				      envp ? envp : environ);
	posix_spawn_file_actions_destroy(&actions);
	if (err) {
		status = rolling_error("cannot run %s%s: %s", flags & RUN_PROGRAM ? "" : "git ",
				       args[0], strerror(err));
		goto close_pipe;
	}
	if (flags & ROLLING_RUN_CAPTURE) {
		close(pipefd[1]);
		pipefd[1] = -1;
		status = rolling_finish_reading(pid, pipefd[0], out, len, args[0]);
		pipefd[0] = -1;
	} else {
		status = wait_for(pid, args[0]);
	}
close_pipe:
	free(argv);
	free(envp);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return status;
}

int rolling_start_git_reading(pid_t *pid, int *fd, const char *const *args)
{
	posix_spawn_file_actions_t actions;
	const char **argv;
	int pipefd[2], err;

	if (!(argv = git_argv(args, 0)))
		return rolling_error_nomem();
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(argv);
		return rolling_error("cannot create a pipe: %s", strerror(errno));
	}
	if (!(err = posix_spawn_file_actions_init(&actions))) {
		if (!(err = posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1))) {
			fflush(NULL);
			err = rolling_tempfile_spawnp(pid, "git", &actions,
						      (char *const *)(uintptr_t)argv, environ);
		}
		posix_spawn_file_actions_destroy(&actions);
	}
	free(argv);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		return rolling_error("cannot run git %s: %s", args[0], strerror(err));
	}
	*fd = pipefd[0];
	return 0;
}

void rolling_abandon_reading(pid_t pid, int fd)
{
	kill(pid, SIGTERM);
	close(fd);
	rolling_tempfile_waitpid(pid, NULL);
}

int rolling_git_output(char **line, const char *const *args)
{
	char *out, *nl;
	int status = rolling_run_git(args, &out, ROLLING_RUN_CAPTURE);

	*line = NULL;
	if (status < 0)
		return status;
	if (status) {
		free(out);
		return rolling_error("git %s failed (exit status %d)", args[0], status);
	}
	if ((nl = strchr(out, '\n')))
		*nl = '\0';
	*line = out;
	return 0;
}

/* --- git's words ---------------------------------------------------------- */

#define FATAL "fatal: "

/* Where the line that begins "fatal: " starts in `said`, or -1. */
static long fatal_at(const char *said)
{
	const char *p;

	for (p = said; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, FATAL, strlen(FATAL)))
			return p - said;
	return -1;
}

int rolling_git_said_fatal(const char *said)
{
	return said && fatal_at(said) >= 0;
}

const char *rolling_git_words(char *said, enum rolling_git_words how)
{
	char *words, *from, *to;
	size_t len;
	long at;

	if (!said)
		return "";
	len = strlen(said);
	while (len && (said[len - 1] == '\n' || said[len - 1] == ' '))
		said[--len] = '\0';
	if ((at = fatal_at(said)) >= 0) {
		words = said + at + strlen(FATAL);
	} else {
		words = strrchr(said, '\n');
		words = words ? words + 1 : said;
	}
	if (how == ROLLING_GIT_WORDS_LINE) {
		words[strcspn(words, "\n")] = '\0';
	} else if (how == ROLLING_GIT_WORDS_JOINED) {
		for (from = to = words; *from; from++)
			if (*from != '\n' && *from != '\t')
				*to++ = *from;
			else if (to > words && to[-1] != ' ')
				*to++ = ' ';
		*to = '\0';
	}
	return words;
}
