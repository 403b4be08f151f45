#include <stddef.h>
#include "progress.h"

static const struct rolling_progress_display *display;

void rolling_progress_set_display(const struct rolling_progress_display *d)
{
	display = d;
}

struct rolling_progress *rolling_progress_start(const char *title, uint64_t total, int wanted)
{
	return wanted && display ? display->start(title, total) : NULL;
}

void rolling_progress_update(struct rolling_progress *progress, uint64_t n)
{
	if (progress)
		display->update(progress, n);
}

void rolling_progress_stop(struct rolling_progress **progress)
{
	if (*progress)
		display->stop(*progress);
	*progress = NULL;
}
