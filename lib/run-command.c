#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "run-command.h"
#include "error.h"

extern char **environ;

#define MAX_ARGS 64

/* Read everything from fd into a growing NUL-terminated buffer. */
static int read_all(int fd, char **out)
{
	size_t len = 0, alloc = 256;
	char *buf = malloc(alloc);

	if (!buf)
		return rolling_error("out of memory");
	for (;;) {
		ssize_t n;

		if (len + 1 >= alloc) {
			char *grown = realloc(buf, alloc * 2);

			if (!grown) {
				free(buf);
				return rolling_error("out of memory");
			}
			buf = grown;
			alloc *= 2;
		}
		n = read(fd, buf + len, alloc - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return rolling_error("cannot read the output of git: %s", strerror(errno));
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int wait_for(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return rolling_error("cannot wait for git %s: %s", what, strerror(errno));
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return rolling_error("git %s ended abnormally", what);
}

int rolling_run_git(const char *const *args, char **out, unsigned flags)
{
	const char *argv[MAX_ARGS + 2];
	posix_spawn_file_actions_t actions;
	int pipefd[2] = { -1, -1 };
	int err, status, read_err = 0;
	size_t i;
	pid_t pid;

	if (out)
		*out = NULL;
	argv[0] = "git";
	for (i = 0; args[i]; i++) {
		if (i == MAX_ARGS)
			return rolling_error("too many arguments for git %s", args[0]);
		argv[i + 1] = args[i];
	}
	argv[i + 1] = NULL;

	if ((flags & ROLLING_RUN_CAPTURE) && pipe2(pipefd, O_CLOEXEC) < 0)
		return rolling_error("cannot create a pipe: %s", strerror(errno));
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
	if (!err && (flags & ROLLING_RUN_NO_STDERR))
		err = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	else if (!err && (flags & ROLLING_RUN_STDERR_TO_STDOUT))
		err = posix_spawn_file_actions_adddup2(&actions, 1, 2);
	if (err) {
		posix_spawn_file_actions_destroy(&actions);
		status = rolling_error("cannot run git: %s", strerror(err));
		goto close_pipe;
	}
	/* What we printed must come before what git prints. */
	fflush(stdout);
	fflush(stderr);
	/* Its char *const[] predates const; posix_spawnp() writes to no argument. */
	err = posix_spawnp(&pid, "git", &actions, NULL, (char *const *)(uintptr_t)argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (err) {
		status = rolling_error("cannot run git %s: %s", args[0], strerror(err));
		goto close_pipe;
	}
	if (flags & ROLLING_RUN_CAPTURE) {
		close(pipefd[1]);
		pipefd[1] = -1;
		read_err = read_all(pipefd[0], out);
		/* Unblock the child should we have stopped reading early. */
		close(pipefd[0]);
		pipefd[0] = -1;
	}
	status = wait_for(pid, args[0]);
	if (read_err < 0 && status >= 0)
		status = read_err;
	if (status < 0 && out) {
		free(*out);
		*out = NULL;
	}
close_pipe:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return status;
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
