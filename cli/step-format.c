#include <stdio.h>
#include <string.h>
#include <time.h>
#include "step-format.h"
#include "../lib/abbrev.h"
#include "text.h"

/* The calendar time of `time` in the time zone `offset` minutes east of UTC. */
static int recorded_tm(struct tm *tm, git_time_t time, int offset)
{
	time_t local = (time_t)(time + (git_time_t)offset * 60);

	return gmtime_r(&local, tm) != NULL;
}

const char *rolling_format_day(char *buf, size_t size, git_time_t time, int offset)
{
	struct tm tm;

	if (!recorded_tm(&tm, time, offset) || !strftime(buf, size, "%Y-%m-%d", &tm))
		snprintf(buf, size, "?");
	return buf;
}

const char *rolling_format_iso_time(char *buf, size_t size, git_time_t time, int offset)
{
	int minutes = offset < 0 ? -offset : offset;
	struct tm tm;
	size_t len;

	if (!recorded_tm(&tm, time, offset) ||
	    !(len = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm))) {
		snprintf(buf, size, "?");
		return buf;
	}
	snprintf(buf + len, size - len, "%c%02d:%02d", offset < 0 ? '-' : '+',
		 minutes / 60, minutes % 60);
	return buf;
}

void rolling_step_format(struct strbuf *out, git_repository *repo,
			 const struct rolling_step *step)
{
	char abbrev[ROLLING_ABBREV_BUFSZ], day[32];

	strbuf_addf(out, "%s (%s %s, %s)", qtext(step->release->name), step->is_base ? "base" : "merge",
		    rolling_abbrev(abbrev, repo, &step->commit),
		    rolling_format_day(day, sizeof(day), step->time, step->offset));
}
