#include <stdlib.h>
#include <string.h>
#include "abbrev.h"
#include "steps.h"
#include "merge.h"
#include "alloc.h"
#include "error.h"

static int append(struct rolling_steps *steps, size_t *alloc, git_commit *commit,
		  const struct rolling_release *release, int is_base)
{
	struct rolling_step *step;

	if (ALLOC_GROW(steps->v, steps->nr + 1, *alloc) < 0)
		return ROLLING_ERROR;
	step = &steps->v[steps->nr++];
	memset(step, 0, sizeof(*step));
	git_oid_cpy(&step->commit, git_commit_id(commit));
	step->release = release;
	step->time = git_commit_time(commit);
	step->offset = git_commit_time_offset(commit);
	step->is_base = is_base;
	return 0;
}

/* The walk collects newest first; the callers want oldest first. */
static int index_steps(struct rolling_steps *steps)
{
	size_t i, seen;

	for (i = 0; i < steps->nr / 2; i++) {
		struct rolling_step tmp = steps->v[i];

		steps->v[i] = steps->v[steps->nr - 1 - i];
		steps->v[steps->nr - 1 - i] = tmp;
	}
	for (i = 0; i < steps->nr; i++) {
		struct rolling_step *step = &steps->v[i];

		step->series_switch = i > 0 &&
			rolling_series_cmp(&step->release->version.series,
					   &steps->v[i - 1].release->version.series) != 0;
		if (rolling_oidmap_put(&steps->by_commit, &step->commit, i) < 0)
			return ROLLING_ERROR;
		/* A release merged twice stands for the first step. */
		if (!rolling_oidmap_get(&steps->by_release, &step->release->commit, &seen) &&
		    rolling_oidmap_put(&steps->by_release, &step->release->commit, i) < 0)
			return ROLLING_ERROR;
	}
	return 0;
}

int rolling_steps_list(struct rolling_steps *steps, git_repository *repo, const git_oid *tip,
		       const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit = NULL;
	size_t alloc = 0;
	git_oid id;
	int err;

	memset(steps, 0, sizeof(*steps));
	git_oid_cpy(&id, tip);
	for (;;) {
		const struct rolling_release *release = rolling_tags_find_commit(tags, &id);

		if ((err = git_commit_lookup(&commit, repo, &id)) < 0) {
			err = rolling_git_error(err, "cannot read %s",
						git_oid_tostr(hex, sizeof(hex), &id));
			goto out;
		}
		if (release) {
			err = append(steps, &alloc, commit, release, 1);
			break;
		}
		if ((err = rolling_merge_identify(&release, commit, tags, patterns)) < 0)
			goto out;
		if (!err) {
			err = rolling_error("%s is neither a rolling merge nor a release commit",
					    rolling_abbrev(hex, repo, &id));
			goto out;
		}
		if ((err = append(steps, &alloc, commit, release, 0)) < 0)
			goto out;
		git_oid_cpy(&id, git_commit_parent_id(commit, 0));
		git_commit_free(commit);
		commit = NULL;
	}
	if (!err)
		err = index_steps(steps);
out:
	git_commit_free(commit);
	if (err < 0)
		rolling_steps_release(steps);
	return err < 0 ? err : 0;
}

int rolling_steps_find(const struct rolling_steps *steps, const git_oid *commit, size_t *index)
{
	return rolling_oidmap_get(&steps->by_commit, commit, index) ||
	       rolling_oidmap_get(&steps->by_release, commit, index);
}

void rolling_steps_release(struct rolling_steps *steps)
{
	free(steps->v);
	rolling_oidmap_release(&steps->by_commit);
	rolling_oidmap_release(&steps->by_release);
	memset(steps, 0, sizeof(*steps));
}
