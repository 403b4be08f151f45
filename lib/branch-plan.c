#include <stdlib.h>
#include <string.h>
#include "branch-plan.h"
#include "error.h"
#include "merge.h"
#include "preset.h"

int rolling_branch_plan_read(struct rolling_branch_plan *p, git_repository *repo,
			     struct rolling_branch *b)
{
	int err;

	if ((err = rolling_branch_tip(&p->tip, repo, b->config.branch)) < 0)
		return err;
	return rolling_tip_release(&p->current, repo, &p->tip, &b->tags, &b->patterns);
}

/* Where the policy would head without its pin: what status shows a pin holds back. */
static const struct rolling_series_info *unpinned_target(const struct rolling_branch_plan *p,
							 const struct rolling_policy *policy,
							 const struct rolling_tags *tags)
{
	struct rolling_policy unpinned = *policy;
	const struct rolling_series_info *target;

	unpinned.has_pin = 0;
	if (rolling_policy_target(&target, NULL, NULL, &unpinned, tags, p->current, NULL) < 0) {
		free(rolling_error_take());
		return NULL;
	}
	return target;
}

static int make_merges(struct rolling_branch_plan *p, git_repository *repo,
		       const struct rolling_branch *b, const struct rolling_ident *ident,
		       int write)
{
	if (!(p->merges = calloc(p->steps.nr + 1, sizeof(*p->merges))))
		return rolling_error_nomem();
	git_oid_cpy(&p->new_tip, &p->tip);
	return rolling_merge_create_plan(&p->new_tip, p->merges, repo, &p->steps, ident,
					 b->config.signoff, !write);
}

int rolling_branch_plan_steps(struct rolling_branch_plan *p, git_repository *repo,
			      const struct rolling_branch *b, const struct rolling_tags *tags,
			      const struct rolling_series *asked,
			      const struct rolling_ident *ident, int write)
{
	int err;

	if (b->policy.has_pin)
		p->unpinned = unpinned_target(p, &b->policy, tags);
	if ((err = rolling_policy_target(&p->target, &p->pin_stay, &p->qualifies, &b->policy,
					 tags, p->current, asked)) < 0) {
		p->target = NULL;
		return err;
	}
	if ((err = rolling_plan_steps(&p->steps, tags, p->current, p->target,
				      b->policy.steps)) < 0)
		return err;
	return ident ? make_merges(p, repo, b, ident, write) : 0;
}

int rolling_branch_plan_start(const struct rolling_release **start,
			      const struct rolling_series_info **followed,
			      struct rolling_branch *b, const char *at)
{
	int err;

	*followed = NULL;
	if (at) {
		if (!(*start = rolling_tags_find_name(&b->tags, &b->patterns, at)) ||
		    !rolling_release_is_commit(&b->tags, *start))
			return rolling_error("'%s' is not a release tag matching"
					     " rolling.%s.releasePattern", at, b->config.branch);
		return 0;
	}
	if ((err = rolling_policy_series(followed, &b->policy, &b->tags)) < 0)
		return err;
	*start = rolling_series_newest(&b->tags, *followed);
	return 0;
}

int rolling_branch_plan_next_switch(struct rolling_next_switch *next,
				    const struct rolling_branch_plan *p,
				    struct rolling_branch *b)
{
	/* A preset's series follow one another; a custom scheme's may skip some. */
	int successive = rolling_preset_find_patterns(b->config.release_pattern,
						      b->config.mainline_pattern) != NULL;

	memset(next, 0, sizeof(*next));
	if (!p->target || !p->qualifies ||
	    rolling_series_cmp(&p->target->series, &p->current->version.series))
		return 0;
	return rolling_policy_next_switch(next, &b->policy, &b->tags, &b->patterns, successive,
					  &p->target->series);
}

size_t rolling_branch_plan_unreached(const struct rolling_release **out,
				     const struct rolling_branch_plan *p,
				     const struct rolling_tags *tags)
{
	size_t i, nr = 0;

	if (!p->target)
		return 0;
	for (i = 0; i < tags->releases_nr; i++) {
		const struct rolling_release *r = &tags->releases[i];
		const struct rolling_series *series = &r->version.series;

		if (rolling_version_cmp(&r->version, &p->current->version) <= 0 ||
		    rolling_series_cmp(series, &p->target->series) > 0)
			continue;
		if (rolling_series_cmp(series, &p->current->version.series) &&
		    rolling_series_cmp(series, &p->target->series))
			continue;
		if (out)
			out[nr] = r;
		nr++;
	}
	return nr;
}

void rolling_branch_plan_release(struct rolling_branch_plan *p)
{
	rolling_plan_release(&p->steps);
	free(p->merges);
	memset(p, 0, sizeof(*p));
}
