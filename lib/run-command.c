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
#include "error.h"
#include "fd-io.h"
#include "strbuf.h"
#include "tempfile.h"

extern char **environ;

int rolling_env_push(struct rolling_strvec *env, const char *name, const char *value)
{
	struct strbuf entry = STRBUF_INIT;
	int err;

	strbuf_addstr(&entry, name);
	if (value) {
		strbuf_addch(&entry, '=');
		strbuf_addstr(&entry, value);
	}
	if (strbuf_oom(&entry)) {
		env->oom = 1;
		err = rolling_error_nomem();
	} else {
		err = rolling_strvec_push(env, entry.buf);
	}
	strbuf_release(&entry);
	return err;
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
static char **child_environ(const struct rolling_strvec *env)
{
	size_t nr = 0, i, j;
	char **out;

	while (environ[nr])
		nr++;
	if (!(out = calloc(nr + env->nr + 1, sizeof(*out))))
		return NULL;
	for (i = j = 0; i < nr; i++) {
		size_t k, len = env_name_len(environ[i]);

		for (k = 0; k < env->nr; k++)
			if (env_name_len(env->v[k]) == len && !strncmp(env->v[k], environ[i], len))
				break;
		if (k == env->nr)
			out[j++] = environ[i];
	}
	for (i = 0; i < env->nr; i++)
		if (strchr(env->v[i], '='))
			out[j++] = env->v[i];
	return out;
}

/*
 * The name of the git command it runs, for messages: its first argument
 * that is neither an option nor the value of one given apart ("-C dir",
 * "--git-dir dir"); another program's own name.  Said with WHAT().
 */
static const char *command_name(const struct rolling_child *child)
{
	static const char *const takes_value[] = { "-C", "-c", "--git-dir", "--work-tree",
						   "--namespace", NULL };
	size_t i, k;

	if (child->program)
		return child->program;
	for (i = 0; i < child->args.nr; i++) {
		const char *arg = child->args.v[i];

		if (arg[0] != '-')
			return arg;
		for (k = 0; takes_value[k]; k++)
			if (!strcmp(arg, takes_value[k]))
				break;
		if (takes_value[k])
			i++;
	}
	return child->args.nr ? child->args.v[0] : "(nothing)";
}

/* The two arguments of "%s%s" that name it: "git config", "gpg". */
#define WHAT(child) (child)->program ? "" : "git ", command_name(child)

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

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Make the child's descriptor `fd` /dev/null when `discard`, else a copy of `from` (>= 0). */
static int redirect(posix_spawn_file_actions_t *actions, int fd, int from, int discard)
{
	if (discard)
		return posix_spawn_file_actions_addopen(actions, fd, "/dev/null", O_WRONLY, 0);
	return from >= 0 ? posix_spawn_file_actions_adddup2(actions, from, fd) : 0;
}

/*
 * What the child's standard files are made of ours: stdin, stdout, then
 * stderr, so that "stderr to stdout" follows where stdout went.
 */
static int file_actions(posix_spawn_file_actions_t *actions, const struct rolling_child *child,
			int stdin_fd, int stdout_fd)
{
	int err;

	if (child->stdin_path)
		err = posix_spawn_file_actions_addopen(actions, 0, child->stdin_path, O_RDONLY, 0);
	else
		err = redirect(actions, 0, stdin_fd, 0);
	if (!err)
		err = redirect(actions, 1,
			       child->out == ROLLING_CHILD_CAPTURE ? stdout_fd :
			       child->out == ROLLING_CHILD_TO_STDERR ? 2 : -1,
			       child->out == ROLLING_CHILD_DISCARD);
	if (!err)
		err = redirect(actions, 2,
			       child->err == ROLLING_CHILD_ERR_CAPTURE ? child->err_fd :
			       child->err == ROLLING_CHILD_ERR_TO_STDOUT ? 1 : -1,
			       child->err == ROLLING_CHILD_ERR_DISCARD);
	/*
	 * A dup2 onto itself clears close-on-exec, in the child alone
	 * (POSIX.1-2024, glibc since 2.29): ours never leaks to another.
	 */
	if (!err && child->inherit_fd >= 0)
		err = posix_spawn_file_actions_adddup2(actions, child->inherit_fd,
						       child->inherit_fd);
	return err;
}

/* posix_spawnp() of "git" args... with its files and environment; 0 or an errno value. */
static int spawn(struct rolling_child *child, int stdin_fd, int stdout_fd)
{
	posix_spawn_file_actions_t actions;
	char **argv, **envp = NULL;
	int err;

	if (!(argv = calloc(child->args.nr + 2, sizeof(*argv))))
		return ENOMEM;
	/* Its char *const[] predates const; posix_spawnp() writes to no argument. */
	argv[0] = (char *)(uintptr_t)(child->program ? child->program : "git");
	if (child->args.nr)
		memcpy(argv + 1, child->args.v, child->args.nr * sizeof(*argv));
	if (child->env.nr && !(envp = child_environ(&child->env))) {
		free(argv);
		return ENOMEM;
	}
	if (!(err = posix_spawn_file_actions_init(&actions))) {
		if (!(err = file_actions(&actions, child, stdin_fd, stdout_fd))) {
			/* What we printed must come before what git prints. */
			fflush(NULL);
			err = rolling_tempfile_spawnp(&child->pid, argv[0], &actions, argv,
						      envp ? envp : environ);
		}
		posix_spawn_file_actions_destroy(&actions);
	}
	free(argv);
	free(envp);
	return err;
}

int rolling_child_start(struct rolling_child *child)
{
	int pipefd[2] = { -1, -1 }, stdin_fd = -1, err;

	if (child->pid > 0)
		return rolling_error("cannot run %s%s: it runs already", WHAT(child));
	strbuf_reset(&child->captured);
	strbuf_reset(&child->said);
	if (child->args.oom || child->env.oom)
		return rolling_error_nomem();
	if (!child->program && !child->args.nr)
		return rolling_error("cannot run git: no command");
	if (child->inherit_fd >= 0 && child->inherit_fd <= 2)
		return rolling_error("cannot run %s%s: no descriptor to hand on",
				     WHAT(child));
	if (child->input && !child->stdin_path &&
	    (stdin_fd = memory_file("git-rolling-stdin", child->input, child->input_len)) < 0)
		return ROLLING_ERROR;
	if (child->err == ROLLING_CHILD_ERR_CAPTURE &&
	    (child->err_fd = memory_file("git-rolling-stderr", NULL, 0)) < 0) {
		close_fd(&stdin_fd);
		return ROLLING_ERROR;
	}
	if (child->out == ROLLING_CHILD_CAPTURE && pipe2(pipefd, O_CLOEXEC) < 0) {
		err = rolling_error("cannot create a pipe: %s", strerror(errno));
		goto fail;
	}
	if ((err = spawn(child, stdin_fd, pipefd[1]))) {
		child->pid = -1;
		err = rolling_error("cannot run %s%s: %s", WHAT(child), strerror(err));
		goto fail;
	}
	/* Only git's end left open: the pipe reads to its end once git is gone. */
	close_fd(&pipefd[1]);
	close_fd(&stdin_fd);
	child->out_fd = pipefd[0];
	return 0;
fail:
	close_fd(&pipefd[0]);
	close_fd(&pipefd[1]);
	close_fd(&stdin_fd);
	close_fd(&child->err_fd);
	return err;
}

/* Wait for it: its exit status, or a negative error. */
static int wait_for(struct rolling_child *child)
{
	pid_t pid = child->pid;
	int status;

	child->pid = -1;
	if (rolling_tempfile_waitpid(pid, &status) < 0)
		return rolling_error("cannot wait for %s%s: %s", WHAT(child),
				     strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return rolling_error("%s%s ended abnormally", WHAT(child));
}

int rolling_child_finish(struct rolling_child *child)
{
	int read_err = 0, status;

	if (child->pid <= 0)
		return rolling_error("cannot wait for %s%s: it was not started",
				     WHAT(child));
	if (child->out_fd >= 0 && strbuf_read_fd(&child->captured, child->out_fd) < 0)
		read_err = strbuf_oom(&child->captured) ? rolling_error_nomem() :
			   rolling_error("cannot read the output of %s%s: %s",
					 WHAT(child), strerror(errno));
	/* Unblock it should we have stopped reading early. */
	close_fd(&child->out_fd);
	status = wait_for(child);
	if (child->err_fd >= 0 && status >= 0 && !read_err &&
	    (lseek(child->err_fd, 0, SEEK_SET) < 0 ||
	     strbuf_read_fd(&child->said, child->err_fd) < 0))
		read_err = strbuf_oom(&child->said) ? rolling_error_nomem() :
			   rolling_error("cannot read what %s%s said: %s",
					 WHAT(child), strerror(errno));
	close_fd(&child->err_fd);
	return read_err < 0 && status >= 0 ? read_err : status;
}

int rolling_child_run(struct rolling_child *child)
{
	int err = rolling_child_start(child);

	return err < 0 ? err : rolling_child_finish(child);
}

void rolling_child_abandon(struct rolling_child *child)
{
	if (child->pid > 0) {
		kill(child->pid, SIGTERM);
		close_fd(&child->out_fd);
		rolling_tempfile_waitpid(child->pid, NULL);
		child->pid = -1;
	}
	close_fd(&child->out_fd);
	close_fd(&child->err_fd);
}

void rolling_child_release(struct rolling_child *child)
{
	struct rolling_child init = ROLLING_CHILD_INIT;

	rolling_child_abandon(child);
	rolling_strvec_release(&child->args);
	rolling_strvec_release(&child->env);
	strbuf_release(&child->captured);
	strbuf_release(&child->said);
	*child = init;
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
