#ifndef ROLLING_POLICY_H
#define ROLLING_POLICY_H

#include "config.h"
#include "tags.h"

enum rolling_policy_kind {
	ROLLING_POLICY_STABLE,
	ROLLING_POLICY_LTS,
};

/* A branch's policy, parsed and checked from its configuration. */
struct rolling_policy {
	enum rolling_policy_kind kind;
	struct rolling_series *lts;    /* sorted ascending */
	size_t lts_nr;
	int has_pin;
	struct rolling_series pin;
};

/* `forms`: the sizes of series the tags have (struct rolling_tags). */
int rolling_policy_parse(struct rolling_policy *policy, const struct rolling_config *cfg,
			 unsigned forms);

/*
 * The series the policy recommends now.  Returns ROLLING_ENOTFOUND (with
 * a message that says why) when no series qualifies yet.
 */
int rolling_policy_series(const struct rolling_series_info **out,
			  const struct rolling_policy *policy,
			  const struct rolling_tags *tags);

/*
 * The steps that bring a branch at `current` to the newest release of
 * `target`: none when it is up to date; the newest release of the current
 * series first when the target is a later series that the branch has not
 * reached.  A target older than the current series is an error: a rolling
 * branch never goes back.
 */
struct rolling_plan {
	const struct rolling_release *steps[2];
	size_t nr;
};

int rolling_plan_steps(struct rolling_plan *plan, const struct rolling_tags *tags,
		       const struct rolling_release *current,
		       const struct rolling_series_info *target);

void rolling_policy_free(struct rolling_policy *policy);

#endif
