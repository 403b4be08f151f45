#ifndef ROLLING_RUN_COMMAND_H
#define ROLLING_RUN_COMMAND_H

#include <stddef.h>
#include <sys/types.h>
#include "strbuf.h"
#include "strvec.h"

/*
 * Running git as a child process, for the commands that drive git's
 * own state (git bisect) rather than read the object store: an argument
 * vector is handed to posix_spawnp(), never a shell, so nothing a user
 * typed is ever interpreted twice.
 */

/*
 * One git run (or of another program: `program`): what it is given and
 * where what it prints goes, as git's own struct child_process.  Fill
 * it, then either
 *
 *	rolling_child_run(): start it and wait for it, or
 *	rolling_child_start(), work meanwhile, then rolling_child_finish()
 *	(or rolling_child_abandon(), which ends it)
 *
 * and rolling_child_release() it in every case:
 *
 *	struct rolling_child child = ROLLING_CHILD_INIT;
 *
 *	rolling_strvec_pushv(&child.args, args);
 *	child.out = ROLLING_CHILD_CAPTURE;
 *	status = rolling_child_run(&child);
 *	... child.captured.buf ...
 *	rolling_child_release(&child);
 *
 * The exit status that run and finish return is git's (0-255), or 128
 * plus the number of the signal that killed it, or a negative error
 * (recorded) when git could not be run or waited for or what it printed
 * could not be read.  Every git started is registered until it is
 * waited for, and ends with us: on a fatal signal it is killed and
 * waited for before our own files are removed (tempfile.h).
 */

/* Where its standard output goes. */
enum rolling_child_out {
	ROLLING_CHILD_INHERIT,          /* ours (the default) */
	ROLLING_CHILD_CAPTURE,          /* into `captured` */
	ROLLING_CHILD_DISCARD,          /* /dev/null */
	ROLLING_CHILD_TO_STDERR,        /* our standard error */
};

/* Where its standard error goes. */
enum rolling_child_err {
	ROLLING_CHILD_ERR_INHERIT,      /* ours (the default) */
	ROLLING_CHILD_ERR_CAPTURE,      /* into `said`, apart from its output */
	ROLLING_CHILD_ERR_DISCARD,      /* /dev/null */
	ROLLING_CHILD_ERR_TO_STDOUT,    /* wherever its output goes (captured with it) */
};

struct rolling_child {
	/* What it is given. */
	const char *program;            /* what runs, found on PATH; NULL: git */
	struct rolling_strvec args;     /* after the program's name */
	/*
	 * Changes to our environment for it alone (rolling_env_push()):
	 * "NAME=value" sets NAME, "NAME" alone removes it.  Ours is never
	 * changed to pass something to a child.
	 */
	struct rolling_strvec env;
	const char *stdin_path;         /* its standard input: this file, */
	const char *input;              /* or these input_len bytes, */
	size_t input_len;               /* or else ours */
	/*
	 * A descriptor of ours (above 2) left open in it under the same
	 * number, and so in what it starts in turn, while ours stays
	 * close-on-exec: no other child gets it.  For a lock whose flock(2)
	 * must be held as long as the child, or a process of its own,
	 * lives (quarantine.h).  -1: none.
	 */
	int inherit_fd;
	enum rolling_child_out out;
	enum rolling_child_err err;

	/* What it printed, NUL-terminated (the output may hold NULs: -z). */
	struct strbuf captured;         /* its output, with ROLLING_CHILD_CAPTURE */
	struct strbuf said;             /* its standard error, with ROLLING_CHILD_ERR_CAPTURE */

	/* While it runs (private). */
	pid_t pid;                      /* -1: not running */
	int out_fd, err_fd;
};

#define ROLLING_CHILD_INIT { .args = ROLLING_STRVEC_INIT, .env = ROLLING_STRVEC_INIT, \
			     .inherit_fd = -1, .captured = STRBUF_INIT, .said = STRBUF_INIT, \
			     .pid = -1, .out_fd = -1, .err_fd = -1 }

/* Add "NAME=value" to `env`, or "NAME" (remove it) when value is NULL; 0 or negative. */
int rolling_env_push(struct rolling_strvec *env, const char *name, const char *value);

/* Start it and wait for it: its exit status, or a negative error. */
int rolling_child_run(struct rolling_child *child);

/*
 * Start it and return at once, so that git works while the caller
 * does: 0, or a negative error (then it is not running).  What it
 * prints into a capture waits in a pipe, and git blocks once the pipe
 * is full, until rolling_child_finish() reads it all and waits for it
 * (its exit status, or a negative error).  rolling_child_abandon() ends
 * it instead (SIGTERM) and reaps it.
 */
int rolling_child_start(struct rolling_child *child);
int rolling_child_finish(struct rolling_child *child);
void rolling_child_abandon(struct rolling_child *child);

/*
 * Free what it holds (abandoning it if it still runs); it is as
 * ROLLING_CHILD_INIT made it, ready to be filled again.
 */
void rolling_child_release(struct rolling_child *child);

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

#endif
