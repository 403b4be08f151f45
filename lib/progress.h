#ifndef ROLLING_PROGRESS_H
#define ROLLING_PROGRESS_H

#include <stdint.h>

/*
 * The library counts; the program shows.  A long operation reports how
 * far it is through a meter that the program's display draws (git's
 * meter on standard error, cli/progress.c).  With no display installed,
 * or when the caller does not want progress, meters are NULL and cost
 * nothing; every function accepts NULL.
 */
struct rolling_progress;

struct rolling_progress_display {
	/* A meter counting to `total` (0: unknown), or NULL. */
	struct rolling_progress *(*start)(const char *title, uint64_t total);
	void (*update)(struct rolling_progress *progress, uint64_t n);
	/* Finish the meter and free it. */
	void (*stop)(struct rolling_progress *progress);
};

/* Install the display every meter of this process uses (NULL: none). */
void rolling_progress_set_display(const struct rolling_progress_display *display);

/* A meter from the installed display when `wanted`, else NULL. */
struct rolling_progress *rolling_progress_start(const char *title, uint64_t total, int wanted);

void rolling_progress_update(struct rolling_progress *progress, uint64_t n);

/* Finish and free the meter, and set *progress to NULL. */
void rolling_progress_stop(struct rolling_progress **progress);

#endif
