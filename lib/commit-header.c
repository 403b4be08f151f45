#include <stdlib.h>
#include <string.h>
#include "commit-header.h"
#include "alloc.h"
#include "error.h"

int rolling_commit_header_read(struct rolling_parent_pool *pool, unsigned *parents_nr,
			       git_time_t *time, const char *data, size_t size)
{
	const char *p = data, *end = data + size, *line_end;

	*parents_nr = 0;
	*time = 0;
	for (; p < end && *p != '\n'; p = line_end + 1) {
		if (!(line_end = memchr(p, '\n', (size_t)(end - p))))
			break;
		if (!strncmp(p, "parent ", 7)) {
			if (ALLOC_GROW(pool->oids, pool->nr + 1, pool->alloc) < 0)
				return ROLLING_ERROR;
			if (line_end - p < 7 + GIT_OID_HEXSZ ||
			    git_oid_fromstrn(&pool->oids[pool->nr], p + 7, GIT_OID_HEXSZ) < 0)
				return rolling_error("a bad parent line");
			pool->nr++;
			(*parents_nr)++;
		} else if (!strncmp(p, "committer ", 10)) {
			const char *gt = memrchr(p, '>', (size_t)(line_end - p));

			if (gt)
				*time = (git_time_t)strtoll(gt + 1, NULL, 10);
			break;
		}
	}
	return 0;
}
