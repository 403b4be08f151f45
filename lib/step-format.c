#include <stdio.h>
#include <string.h>
#include <time.h>
#include "step-format.h"

const char *rolling_abbrev(char *buf, git_repository *repo, const git_oid *id)
{
	git_buf out = GIT_BUF_INIT;
	git_object *object;

	git_oid_tostr(buf, 13, id);
	if (git_object_lookup(&object, repo, id, GIT_OBJECT_ANY) < 0)
		return buf;
	if (!git_object_short_id(&out, object) && out.size < ROLLING_ABBREV_BUFSZ)
		memcpy(buf, out.ptr, out.size + 1);
	git_buf_dispose(&out);
	git_object_free(object);
	return buf;
}

const char *rolling_format_day(char *buf, size_t size, git_time_t time, int offset)
{
	time_t local = (time_t)(time + (git_time_t)offset * 60);
	struct tm tm;

	if (!gmtime_r(&local, &tm) || !strftime(buf, size, "%Y-%m-%d", &tm))
		snprintf(buf, size, "?");
	return buf;
}

const char *rolling_step_format(char *buf, size_t size, git_repository *repo,
				const struct rolling_step *step)
{
	char abbrev[ROLLING_ABBREV_BUFSZ], day[32];

	snprintf(buf, size, "%s (%s %s, %s)", step->release->name, step->is_base ? "base" : "merge",
		 rolling_abbrev(abbrev, repo, &step->commit),
		 rolling_format_day(day, sizeof(day), step->time, step->offset));
	return buf;
}
