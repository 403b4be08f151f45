#include <stdlib.h>
#include <string.h>
#include "policy.h"
#include "alloc.h"
#include "error.h"
#include "strbuf.h"

static int cmp_series(const void *a, const void *b)
{
	return rolling_series_cmp(a, b);
}

/*
 * Parse the value of rolling.<branch>.steps (NULL: the default), naming
 * `key` in the error message.
 */
static int parse_steps_mode(enum rolling_steps_mode *mode, const char *value,
			    const char *key)
{
	*mode = ROLLING_STEPS_NEWEST;
	if (!value || !strcmp(value, "newest"))
		return 0;
	if (!strcmp(value, "each")) {
		*mode = ROLLING_STEPS_EACH;
		return 0;
	}
	return rolling_error("%s: unknown value '%s' (expected 'newest' or 'each')", key, value);
}

static const char *const switch_rule_names[] = {
	[ROLLING_SWITCH_NEXT_RC1] = "next-rc1",
	[ROLLING_SWITCH_FIRST_POINT] = "first-point-release",
	[ROLLING_SWITCH_FIRST_RELEASE] = "first-release",
};

#define SWITCH_RULES_NR (sizeof(switch_rule_names) / sizeof(switch_rule_names[0]))

int rolling_switch_rule_parse(enum rolling_switch_rule *rule, const char *value,
			      const char *key)
{
	size_t i;

	if (!value)
		value = ROLLING_DEFAULT_SWITCH;
	for (i = 0; i < SWITCH_RULES_NR; i++)
		if (!strcmp(value, switch_rule_names[i])) {
			*rule = (enum rolling_switch_rule)i;
			return 0;
		}
	return rolling_error("%s: unknown switch rule '%s' (expected 'first-release',"
			     " 'first-point-release' or 'next-rc1')", key, value);
}

const char *rolling_switch_rule_name(enum rolling_switch_rule rule)
{
	return switch_rule_names[rule];
}

static int parse_series_list(struct rolling_policy *policy, const char *list,
			     const char *key, unsigned forms)
{
	char *copy = strdup(list ? list : ""), *word, *save = NULL;
	size_t alloc = 0;
	int err = 0;

	if (!copy)
		return rolling_error_nomem();
	for (word = strtok_r(copy, " \t,", &save); word; word = strtok_r(NULL, " \t,", &save)) {
		if ((err = ALLOC_GROW(policy->lts, policy->lts_nr + 1, alloc)) < 0 ||
		    (err = rolling_series_parse(&policy->lts[policy->lts_nr], word,
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
	struct strbuf key = STRBUF_INIT;
	int err = 0;

	memset(policy, 0, sizeof(*policy));
	if (!strcmp(cfg->policy, "stable"))
		policy->kind = ROLLING_POLICY_STABLE;
	else if (!strcmp(cfg->policy, "lts"))
		policy->kind = ROLLING_POLICY_LTS;
	else
		err = rolling_error("%s: unknown policy '%s' (expected 'stable' or 'lts')",
				     rolling_config_key(&key, cfg->branch, "policy"),
				     cfg->policy);
	if (!err)
		err = rolling_switch_rule_parse(&policy->rule, cfg->switch_rule,
						rolling_config_key(&key, cfg->branch, "switch"));
	if (!err && policy->kind == ROLLING_POLICY_LTS)
		err = parse_series_list(policy, cfg->series,
					rolling_config_key(&key, cfg->branch, "series"),
					forms);
	if (!err)
		err = parse_steps_mode(&policy->steps, cfg->steps,
					       rolling_config_key(&key, cfg->branch,
								  "steps"));
	if (!err && cfg->pin) {
		policy->has_pin = 1;
		err = rolling_series_parse(&policy->pin, cfg->pin, forms,
					   rolling_config_key(&key, cfg->branch, "pin"));
	}
	if (err)
		rolling_policy_release(policy);
	strbuf_release(&key);
	return err;
}

static int is_lts(const struct rolling_policy *policy, const struct rolling_series *s)
{
	if (!policy->lts_nr)
		return 0;
	return bsearch(s, policy->lts, policy->lts_nr, sizeof(*policy->lts), cmp_series) != NULL;
}

/* Whether the series has a release after its first: releases are in version order. */
static int has_point_release(const struct rolling_tags *tags,
			     const struct rolling_series_info *info)
{
	return info->count && tags->releases[info->first + info->count - 1].version.patch > 0;
}

/*
 * stable, by the switch rule: first-release, once the series has a
 * release (a series' releases exist only when it does); first-point-
 * release, once it has one after its first; next-rc1, once it has one
 * and mainline has tagged anything of a later series, i.e. the next
 * merge window has closed.
 * lts: only listed series, once a later mainline final release exists.
 */
static int qualifies(const struct rolling_policy *policy, const struct rolling_tags *tags,
		     const struct rolling_series_info *info)
{
	const struct rolling_series *s = &info->series;

	if (policy->kind == ROLLING_POLICY_LTS)
		return is_lts(policy, s) && tags->has_mainline_final &&
		       rolling_series_cmp(&tags->newest_mainline_final, s) > 0;
	switch (policy->rule) {
	case ROLLING_SWITCH_FIRST_RELEASE:
		return 1;
	case ROLLING_SWITCH_FIRST_POINT:
		return has_point_release(tags, info);
	case ROLLING_SWITCH_NEXT_RC1:
		break;
	}
	return has_point_release(tags, info) && tags->has_mainline &&
	       rolling_series_cmp(&tags->newest_mainline, s) > 0;
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
						  rolling_series_format(name, &policy->pin));
		return 0;
	}
	for (i = tags->series_nr; i-- > 0;) {
		if (qualifies(policy, tags, &tags->series[i]) &&
		    rolling_series_newest(tags, &tags->series[i])) {
			*out = &tags->series[i];
			return 0;
		}
	}
	if (!tags->releases_nr)
		return rolling_error_code(ROLLING_ENOTFOUND, "no release tags match the release pattern");
	if (policy->kind == ROLLING_POLICY_STABLE && policy->rule == ROLLING_SWITCH_NEXT_RC1)
		return rolling_error_code(ROLLING_ENOTFOUND,
					  "no series qualifies yet: no series with a release has a later "
					  "mainline tag (its successor's merge window is still open)");
	if (policy->kind == ROLLING_POLICY_STABLE)
		return rolling_error_code(ROLLING_ENOTFOUND,
					  "no series qualifies yet: no series has a point release");
	return rolling_error_code(ROLLING_ENOTFOUND,
				  "no series qualifies yet: no long-term series has both a release "
				  "and a later mainline final release");
}

const char *rolling_steps_mode_name(enum rolling_steps_mode mode)
{
	return mode == ROLLING_STEPS_EACH ? "each" : "newest";
}

static int asked_target(const struct rolling_series_info **target,
			const struct rolling_tags *tags,
			const struct rolling_series_info *current,
			const struct rolling_series *asked)
{
	char a[ROLLING_SERIES_BUFSZ], c[ROLLING_SERIES_BUFSZ];

	rolling_series_format(a, asked);
	if (!(*target = rolling_tags_find_series(tags, asked)))
		return rolling_error_code(ROLLING_ENOTFOUND, "series %s has no release tag", a);
	if (rolling_series_cmp(asked, &current->series) < 0)
		return rolling_error("series %s is older than the current series %s:"
				     " a rolling branch never goes back", a,
				     rolling_series_format(c, &current->series));
	return 0;
}

int rolling_policy_target(const struct rolling_series_info **target, int *pin_behind,
			  int *qualifies, const struct rolling_policy *policy,
			  const struct rolling_tags *tags,
			  const struct rolling_release *current,
			  const struct rolling_series *asked)
{
	const struct rolling_series_info *here =
		rolling_tags_find_series(tags, &current->version.series);
	const struct rolling_series_info *wanted = NULL;
	int has_series = 0;

	if (pin_behind)
		*pin_behind = 0;
	*target = here;
	if (!asked || qualifies) {
		/* No series yet is an answer here, not an error: the branch stays. */
		has_series = !rolling_policy_series(&wanted, policy, tags);
		if (!has_series)
			free(rolling_error_take());
		if (qualifies)
			*qualifies = has_series;
	}
	if (asked)
		return asked_target(target, tags, here, asked);
	if (!has_series) {
		if (pin_behind && policy->has_pin)
			*pin_behind = ROLLING_PIN_UNRELEASED;
		return 0;
	}
	if (rolling_series_cmp(&wanted->series, &here->series) < 0) {
		if (pin_behind && policy->has_pin)
			*pin_behind = ROLLING_PIN_BEHIND;
		return 0;
	}
	*target = wanted;
	return 0;
}

static int plan_add(struct rolling_plan *plan, const struct rolling_tags *tags,
		    const struct rolling_release *release)
{
	if (!rolling_release_is_commit(tags, release))
		return 0;
	if (ALLOC_GROW(plan->steps, plan->nr + 1, plan->alloc) < 0)
		return ROLLING_ERROR;
	plan->steps[plan->nr++] = release;
	return 0;
}

/* Every release of the series after `current`, in version order. */
static int plan_each(struct rolling_plan *plan, const struct rolling_tags *tags,
		     const struct rolling_series_info *series,
		     const struct rolling_release *current)
{
	size_t i;
	int err;

	for (i = series->first; i < series->first + series->count; i++) {
		const struct rolling_release *r = &tags->releases[i];

		if (rolling_version_cmp(&r->version, &current->version) > 0 &&
		    (err = plan_add(plan, tags, r)) < 0)
			return err;
	}
	return 0;
}

/* The newest release of the series, if it is after `current`. */
static int plan_newest(struct rolling_plan *plan, const struct rolling_tags *tags,
		       const struct rolling_series_info *series,
		       const struct rolling_release *current)
{
	const struct rolling_release *newest = rolling_series_newest(tags, series);

	if (!newest || rolling_version_cmp(&newest->version, &current->version) <= 0)
		return 0;
	return plan_add(plan, tags, newest);
}

int rolling_plan_steps(struct rolling_plan *plan, const struct rolling_tags *tags,
		       const struct rolling_release *current,
		       const struct rolling_series_info *target,
		       enum rolling_steps_mode mode)
{
	const struct rolling_series_info *current_series =
		rolling_tags_find_series(tags, &current->version.series);
	char from[ROLLING_SERIES_BUFSZ], to[ROLLING_SERIES_BUFSZ];
	int cmp = rolling_series_cmp(&target->series, &current->version.series);
	int err = 0;

	memset(plan, 0, sizeof(*plan));
	rolling_series_format(to, &target->series);
	if (!rolling_series_newest(tags, target))
		return rolling_error("series %s has no release tag that leads to a commit", to);
	if (cmp < 0)
		return rolling_error("series %s is older than the branch's current series %s:"
				     " a rolling branch never goes back", to,
				     rolling_series_format(from, &current->version.series));
	/* Catch up with the current series before leaving it. */
	if (mode == ROLLING_STEPS_EACH)
		err = plan_each(plan, tags, current_series, current);
	else if (cmp > 0)
		err = plan_newest(plan, tags, current_series, current);
	if (!err && (cmp > 0 || mode == ROLLING_STEPS_NEWEST))
		err = plan_newest(plan, tags, target, current);
	return err;
}

void rolling_plan_release(struct rolling_plan *plan)
{
	free(plan->steps);
	memset(plan, 0, sizeof(*plan));
}

/* --- the next switch -------------------------------------------------- */

static int next_lts(struct rolling_series *out, const struct rolling_policy *policy,
		    const struct rolling_series *s)
{
	size_t i;

	for (i = 0; i < policy->lts_nr; i++)
		if (rolling_series_cmp(&policy->lts[i], s) > 0) {
			*out = policy->lts[i];
			return 1;
		}
	return 0;
}

/* A tag name spelled like one of the branch's, detached into *out; NULL when none shows how. */
static int spell(char **out, struct rolling_patterns *patterns, enum rolling_tag_kind kind,
		 const char *example, const struct rolling_version *want)
{
	struct strbuf name = STRBUF_INIT;
	int ok = rolling_patterns_spell(&name, patterns, kind, example, want);

	*out = ok > 0 ? strbuf_detach(&name) : NULL;
	strbuf_release(&name);
	if (ok > 0 && !*out)
		return rolling_error_nomem();
	return ok < 0 ? ok : 0;
}

/* The release `patch` of `series`, spelled like the newest release of that patch level. */
static int spell_release(char **out, const struct rolling_tags *tags,
			 struct rolling_patterns *patterns, const struct rolling_series *series,
			 uint32_t patch)
{
	struct rolling_version want = { .series = *series, .patch = patch };
	size_t i;
	int err;

	*out = NULL;
	for (i = tags->releases_nr; !*out && i-- > 0;)
		if (tags->releases[i].version.patch == patch &&
		    (err = spell(out, patterns, ROLLING_TAG_RELEASE, tags->releases[i].name,
				 &want)) < 0)
			return err;
	return 0;
}

/* The first pre-release of `series`, spelled like mainline's newest first one. */
static int spell_pre(char **out, const struct rolling_tags *tags,
		     struct rolling_patterns *patterns, const struct rolling_series *series)
{
	struct rolling_version want = tags->first_pre_version;

	*out = NULL;
	if (!tags->first_pre_example)
		return 0;
	want.series = *series;
	return spell(out, patterns, ROLLING_TAG_MAINLINE, tags->first_pre_example, &want);
}

/* next-rc1 and lts: a release of `next`, and mainline past it. */
static int waits_for_two(struct rolling_next_switch *ns, const struct rolling_tags *tags,
			 struct rolling_patterns *patterns)
{
	const struct rolling_series_info *info = rolling_tags_find_series(tags, &ns->next);
	int stable = ns->kind == ROLLING_POLICY_STABLE;

	ns->release_patch = stable;
	ns->wants_release = stable ? !info || !has_point_release(tags, info) : !info;
	if (stable)
		ns->wants_after = !tags->has_mainline ||
				  rolling_series_cmp(&tags->newest_mainline, &ns->next) <= 0;
	else
		ns->wants_after = !tags->has_mainline_final ||
				  rolling_series_cmp(&tags->newest_mainline_final, &ns->next) <= 0;
	if (!ns->wants_after)
		return 0;
	/* Past the next series, mainline names the one after it in any scheme. */
	ns->has_after = rolling_tags_series_after(&ns->after, tags, &ns->next, 1);
	return stable && ns->has_after ? spell_pre(&ns->after_tag, tags, patterns, &ns->after) : 0;
}

int rolling_policy_next_switch(struct rolling_next_switch *ns,
			       const struct rolling_policy *policy,
			       const struct rolling_tags *tags, struct rolling_patterns *patterns,
			       int successive, const struct rolling_series *on)
{
	int stable = policy->kind == ROLLING_POLICY_STABLE;

	memset(ns, 0, sizeof(*ns));
	ns->kind = policy->kind;
	ns->rule = policy->rule;
	ns->successive = successive;
	if (policy->has_pin)
		return 0;
	/*
	 * Custom patterns may skip series (nginx's odd minor versions are
	 * never stable): there only a release names the next one.
	 */
	ns->has_next = stable ? rolling_tags_series_after(&ns->next, tags, on, successive) :
				next_lts(&ns->next, policy, on);
	if (!ns->has_next)
		return stable;
	if (stable && policy->rule != ROLLING_SWITCH_NEXT_RC1) {
		ns->wants_release = 1;
		ns->release_patch = policy->rule == ROLLING_SWITCH_FIRST_POINT;
		return spell_release(&ns->release_tag, tags, patterns, &ns->next,
				     ns->release_patch) < 0 ? ROLLING_ERROR : 1;
	}
	return waits_for_two(ns, tags, patterns) < 0 ? ROLLING_ERROR : 1;
}

void rolling_next_switch_release(struct rolling_next_switch *ns)
{
	free(ns->release_tag);
	free(ns->after_tag);
	memset(ns, 0, sizeof(*ns));
}

void rolling_policy_release(struct rolling_policy *policy)
{
	free(policy->lts);
	memset(policy, 0, sizeof(*policy));
}
