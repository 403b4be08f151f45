#ifndef ROLLING_CLI_PROGRESS_H
#define ROLLING_CLI_PROGRESS_H

#include "../lib/progress.h"

/*
 * Progress on standard error as git shows it (progress.c):
 *
 *   Counting commits:  45% (1234/2742)
 *   Counting commits: 100% (2742/2742), done.
 *
 * or, without a total, the count alone.  Nothing appears before
 * GIT_PROGRESS_DELAY seconds (2 by default) have passed, so quick runs
 * stay silent; after that the line is redrawn once a second, and at once
 * when the percentage changes.  While the process is in the background
 * of its terminal only the final line is written.  Only one meter runs
 * at a time: it owns SIGALRM until it is stopped.  ROLLING_MAIN installs
 * it for every command.
 */
extern const struct rolling_progress_display rolling_terminal_progress;

/*
 * Whether to show progress: `option` is 1 for --progress, 0 for
 * --no-progress, -1 when neither was given, which means "when standard
 * error is a terminal" unless `quiet` (the command's --quiet): as in
 * git's commands, --quiet silences the meter unless --progress asks for
 * it.
 */
int rolling_progress_wanted(int option, int quiet);

#endif
