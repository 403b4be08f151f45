#ifndef ROLLING_PROGRESS_H
#define ROLLING_PROGRESS_H

#include <stdint.h>

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
 * of its terminal only the final line is written.
 */
struct rolling_progress;

/*
 * Whether to show progress: `option` is 1 for --progress, 0 for
 * --no-progress, -1 when neither was given, which means "when standard
 * error is a terminal", as git's commands decide.
 */
int rolling_progress_wanted(int option);

/*
 * Start a delayed progress meter (total 0: unknown).  Returns NULL when
 * `wanted` is 0 or memory is short; every function accepts NULL.  Only
 * one meter runs at a time: it owns SIGALRM until it is stopped.
 */
struct rolling_progress *rolling_progress_start(const char *title, uint64_t total, int wanted);

void rolling_progress_update(struct rolling_progress *progress, uint64_t n);

/* Write the final ", done." line if anything was shown, and free. */
void rolling_progress_stop(struct rolling_progress **progress);

#endif
