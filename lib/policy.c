#include <stdlib.h>
#include <string.h>
#include "policy.h"
#include "error.h"

#define KEY_MAX 1024

static int cmp_series(const void *a, const void *b)
{
	return rolling_series_cmp(a, b);
}

static int parse_series_list(struct rolling_policy *policy, const char *list,
			     const char *key, unsigned forms)
{
	char *copy = strdup(list ? list : ""), *word, *save = NULL;
	size_t alloc = 0;
	int err = 0;

	if (!copy)
		return rolling_error("out of memory");
	for (word = strtok_r(copy, " \t,", &save); word; word = strtok_r(NULL, " \t,", &save)) {
		if (policy->lts_nr == alloc) {
			void *grown;

			alloc = alloc ? alloc * 2 : 16;
			if (!(grown = realloc(policy->lts, alloc * sizeof(*policy->lts)))) {
				err = rolling_error("out of memory");
				break;
			}
			policy->lts = grown;
		}
		if ((err = rolling_series_parse(&policy->lts[policy->lts_nr], word,
						forms, key)) < 0)
			break;
		policy->lts_nr++;
	}
	free(copy);
	if (!err && !policy->lts_nr)
		err = rolling_error("%s is empty: the lts policy needs the long-term series", key);
	if (!err)
		qsort(policy->lts, policy->lts_nr, sizeof(*policy->lts), cmp_series);
	return err;
}

int rolling_policy_parse(struct rolling_policy *policy, const struct rolling_config *cfg,
			 unsigned forms)
{
	char key[KEY_MAX];
	int err = 0;

	memset(policy, 0, sizeof(*policy));
	if (!strcmp(cfg->policy, "stable"))
		policy->kind = ROLLING_POLICY_STABLE;
	else if (!strcmp(cfg->policy, "lts"))
		policy->kind = ROLLING_POLICY_LTS;
	else
		return rolling_error("%s: unknown policy '%s' (expected 'stable' or 'lts')",
				     rolling_config_key(key, sizeof(key), cfg->branch, "policy"),
				     cfg->policy);
	if (policy->kind == ROLLING_POLICY_LTS)
		err = parse_series_list(policy, cfg->series,
					rolling_config_key(key, sizeof(key), cfg->branch, "series"),
					forms);
	if (!err && cfg->pin) {
		policy->has_pin = 1;
		err = rolling_series_parse(&policy->pin, cfg->pin, forms,
					   rolling_config_key(key, sizeof(key), cfg->branch, "pin"));
	}
	if (err)
		rolling_policy_free(policy);
	return err;
}

static int is_lts(const struct rolling_policy *policy, const struct rolling_series *s)
{
	if (!policy->lts_nr)
		return 0;
	return bsearch(s, policy->lts, policy->lts_nr, sizeof(*policy->lts), cmp_series) != NULL;
}

/*
 * stable: a series is followed once mainline has tagged anything of a
 * later series, i.e. the next merge window has closed.
 * lts: only listed series, once a later mainline final release exists.
 */
static int qualifies(const struct rolling_policy *policy, const struct rolling_tags *tags,
		     const struct rolling_series *s)
{
	if (policy->kind == ROLLING_POLICY_STABLE)
		return tags->has_mainline && rolling_series_cmp(&tags->newest_mainline, s) > 0;
	return is_lts(policy, s) && tags->has_mainline_final &&
	       rolling_series_cmp(&tags->newest_mainline_final, s) > 0;
}

int rolling_policy_series(const struct rolling_series_info **out,
			  const struct rolling_policy *policy,
			  const struct rolling_tags *tags)
{
	char name[ROLLING_SERIES_BUFSZ];
	size_t i;

	*out = NULL;
	if (policy->has_pin) {
		*out = rolling_tags_find_series(tags, &policy->pin);
		if (!*out)
			return rolling_error_code(ROLLING_ENOTFOUND,
						  "pinned series %s has no release yet",
						  rolling_series_format(name, sizeof(name), &policy->pin));
		return 0;
	}
	for (i = tags->series_nr; i-- > 0;) {
		if (qualifies(policy, tags, &tags->series[i].series) &&
		    rolling_series_newest(tags, &tags->series[i])) {
			*out = &tags->series[i];
			return 0;
		}
	}
	if (!tags->releases_nr)
		return rolling_error_code(ROLLING_ENOTFOUND, "no release tags match the release pattern");
	if (policy->kind == ROLLING_POLICY_STABLE)
		return rolling_error_code(ROLLING_ENOTFOUND,
					  "no series qualifies yet: no series with a release has a later "
					  "mainline tag (its successor's merge window is still open)");
	return rolling_error_code(ROLLING_ENOTFOUND,
				  "no series qualifies yet: no long-term series has both a release "
				  "and a later mainline final release");
}

int rolling_plan_steps(struct rolling_plan *plan, const struct rolling_tags *tags,
		       const struct rolling_release *current,
		       const struct rolling_series_info *target)
{
	const struct rolling_series_info *current_series =
		rolling_tags_find_series(tags, &current->version.series);
	const struct rolling_release *newest;
	char from[ROLLING_SERIES_BUFSZ], to[ROLLING_SERIES_BUFSZ];
	int cmp = rolling_series_cmp(&target->series, &current->version.series);

	plan->nr = 0;
	if (!(newest = rolling_series_newest(tags, target)))
		return rolling_error("series %s has no release tag that leads to a commit",
				     rolling_series_format(to, sizeof(to), &target->series));
	if (cmp < 0)
		return rolling_error("series %s is older than the branch's current series %s:"
				     " a rolling branch never goes back",
				     rolling_series_format(to, sizeof(to), &target->series),
				     rolling_series_format(from, sizeof(from),
							   &current->version.series));
	/* Catch up with the current series before leaving it. */
	if (cmp > 0) {
		const struct rolling_release *catch_up = rolling_series_newest(tags, current_series);

		if (catch_up && rolling_version_cmp(&catch_up->version, &current->version) > 0)
			plan->steps[plan->nr++] = catch_up;
	}
	if (rolling_version_cmp(&newest->version, &current->version) > 0)
		plan->steps[plan->nr++] = newest;
	return 0;
}

void rolling_policy_free(struct rolling_policy *policy)
{
	free(policy->lts);
	memset(policy, 0, sizeof(*policy));
}
