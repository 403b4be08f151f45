/*
 * git-rolling: the dispatcher.  `git rolling <command>` runs
 * git-rolling-<command>, from the directory this program lives in when it
 * is there (so an uninstalled build works), else from PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/about.h"

static const char *const commands[][2] = {
	{ "init", "configure a rolling branch and create it" },
	{ "advance", "merge the releases a rolling branch has not reached yet" },
	{ "verify", "prove that a rolling branch holds only releases and content-free merges" },
	{ "fetch", "fetch rolling branches, and let refs see them only once verified" },
	{ "pull", "fetch and verify, then fast-forward the branch checked out" },
	{ "bisect-helper", "find the rolling step, then the commit, that broke something" },
	{ "describe", "tell which rolling release first contained a commit" },
	{ "log", "show each rolling step and what it brought" },
	{ "status", "tell where each rolling branch stands and what advance would do" },
};

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: git rolling [--version] [-h | --help] <command> [<args>]\n\n"
	      "commands:\n", out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-14s %s\n", commands[i][0], commands[i][1]);
	fputs("\nSee 'git rolling <command> -h' for a command's options.\n", out);
}

/*
 * The dispatcher links only cli/about.o, not the commands' x* wrappers:
 * this is its one check of an allocation.
 */
static void *checked(void *ptr)
{
	if (!ptr) {
		fprintf(stderr, "fatal: out of memory\n");
		exit(128);
	}
	return ptr;
}

/*
 * The directory holding this executable, for running uninstalled builds
 * (NULL when it cannot be told).  The caller frees it.
 */
static char *own_directory(void)
{
	size_t size = 256;

	for (;;) {
		char *buf = checked(malloc(size)), *slash;
		ssize_t len = readlink("/proc/self/exe", buf, size);

		if (len > 0 && (size_t)len < size) {
			buf[len] = '\0';
			if ((slash = strrchr(buf, '/'))) {
				*slash = '\0';
				return buf;
			}
		}
		free(buf);
		/* A full buffer may hold a cut name: try again, twice as big. */
		if (len <= 0 || (size_t)len < size)
			return NULL;
		size *= 2;
	}
}

static void __attribute__((noreturn)) not_a_command(const char *command)
{
	fprintf(stderr, "git rolling: '%s' is not a git rolling command. "
		"See 'git rolling --help'.\n", command);
	exit(1);
}

static void run(const char *command, char **argv)
{
	char *program, *dir, *path;

	/* A name too long for a file cannot name a command either. */
	if (strchr(command, '/') || strlen("git-rolling-") + strlen(command) > NAME_MAX)
		not_a_command(command);
	program = checked(malloc(strlen("git-rolling-") + strlen(command) + 1));
	strcpy(program, "git-rolling-");
	strcat(program, command);
	argv[0] = program;
	if ((dir = own_directory())) {
		path = checked(malloc(strlen(dir) + strlen(program) + 2));
		sprintf(path, "%s/%s", dir, program);
		if (!access(path, X_OK))
			execv(path, argv);
		free(path);
		free(dir);
	}
	execvp(program, argv);
	if (errno == ENOENT || errno == ENAMETOOLONG)
		not_a_command(command);
	fprintf(stderr, "fatal: cannot run %s: %s\n", program, strerror(errno));
	exit(128);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 129;
	}
	if (!strcmp(argv[1], "-h")) {
		usage(stdout);
		return 129;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && argv[1][0] == 'h') {
			char *help[] = { argv[2], "--help", NULL };

			run(argv[2], help);
		}
		execlp("git", "git", "help", "rolling", (char *)NULL);
		fprintf(stderr, "fatal: cannot run git help: %s\n", strerror(errno));
		return 128;
	}
	if (!strcmp(argv[1], "--list-cmds")) {
		/* For the bash completion: one command per line. */
		size_t i;

		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			puts(commands[i][0]);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("git-rolling version %s\n", rolling_version);
		return 0;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "error: unknown option `%s'\n", argv[1]);
		usage(stderr);
		return 129;
	}
	run(argv[1], argv + 1);
	return 128;
}
