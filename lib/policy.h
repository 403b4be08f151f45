#ifndef ROLLING_POLICY_H
#define ROLLING_POLICY_H

#include "config.h"
#include "tags.h"

enum rolling_policy_kind {
	ROLLING_POLICY_STABLE,
	ROLLING_POLICY_LTS,
};

/*
 * How many merges a branch makes to catch up with its series:
 * rolling.<branch>.steps.
 */
enum rolling_steps_mode {
	ROLLING_STEPS_NEWEST,   /* "newest": the newest release only (the default) */
	ROLLING_STEPS_EACH,     /* "each": every release, one merge each */
};

/*
 * When the stable policy moves to a newer series: rolling.<branch>.switch,
 * written by init from the preset (or --switch).  Each is what some
 * project's own stable branch does (gitrolling(7), PRESETS):
 */
enum rolling_switch_rule {
	/*
	 * "next-rc1" (Linux; the default of a branch configured without
	 * the key, as all were before it existed): once the series has a
	 * point release (patch >= 1) and mainline has tagged a later
	 * series (its rc1 closes the merge window).
	 */
	ROLLING_SWITCH_NEXT_RC1,
	/* "first-point-release" (systemd-stable): once it has a point release. */
	ROLLING_SWITCH_FIRST_POINT,
	/*
	 * "first-release" (git's maint, CPython, PostgreSQL, QEMU): once it
	 * has any release, its first (v2.44.0, REL_17_0, patch 0) included.
	 */
	ROLLING_SWITCH_FIRST_RELEASE,
};

#define ROLLING_DEFAULT_SWITCH "next-rc1"

/*
 * Parse a switch rule (NULL: the default), naming `key` in the error.
 */
int rolling_switch_rule_parse(enum rolling_switch_rule *rule, const char *value,
			      const char *key);

/* "next-rc1", "first-point-release" or "first-release". */
const char *rolling_switch_rule_name(enum rolling_switch_rule rule);

/* A branch's policy, parsed and checked from its configuration. */
struct rolling_policy {
	enum rolling_policy_kind kind;
	enum rolling_switch_rule rule;
	struct rolling_series *lts;    /* sorted ascending */
	size_t lts_nr;
	int has_pin;
	struct rolling_series pin;
	enum rolling_steps_mode steps;
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

/* "newest" or "each". */
const char *rolling_steps_mode_name(enum rolling_steps_mode mode);

/*
 * The series a branch standing at `current` heads for, applying the
 * rule that a rolling branch never goes back:
 *
 *  - with `asked` (a series named on the command line), that series; it
 *    must have a release tag (ROLLING_ENOTFOUND otherwise) and must not
 *    be older than the current series (ROLLING_ERROR);
 *  - else the policy's series, unless it is older than the current one:
 *    then the branch stays on its current series, and *pin_behind is
 *    ROLLING_PIN_BEHIND when a pin put it there, so that the caller can warn;
 *  - else, when no series qualifies yet, the current series, with
 *    *pin_behind ROLLING_PIN_UNRELEASED when the pinned series has no
 *    release yet.
 *
 * `pin_behind` may be NULL; 0 when the branch follows its policy.
 * `qualifies`, when not NULL, says whether the policy has a series now
 * (rolling_policy_series()), asked or not.
 */
enum rolling_pin_stay {
	ROLLING_PIN_BEHIND = 1,
	ROLLING_PIN_UNRELEASED = 2,
};

int rolling_policy_target(const struct rolling_series_info **target, int *pin_behind,
			  int *qualifies, const struct rolling_policy *policy,
			  const struct rolling_tags *tags,
			  const struct rolling_release *current,
			  const struct rolling_series *asked);

/*
 * The releases that bring a branch at `current` to `target`, in the
 * order they are to be merged, one merge each:
 *
 *  - newest: the newest release of `target`, preceded, when `target` is
 *    a later series, by the newest release of the current series if the
 *    branch has not reached it (a series is always left at its newest
 *    release);
 *  - each: every release of the current series after `current`, in
 *    version order, then, when `target` is a later series, the newest
 *    release of `target`.
 *
 * Releases whose tags do not lead to a commit are left out (with the
 * warning of rolling_release_is_commit()).  No steps when the branch is
 * up to date.  A target older than the current series is an error: a
 * rolling branch never goes back.  The list points into `tags`; free it
 * with rolling_plan_release(), also after an error.
 */
struct rolling_plan {
	const struct rolling_release **steps;
	size_t nr, alloc;
};

int rolling_plan_steps(struct rolling_plan *plan, const struct rolling_tags *tags,
		       const struct rolling_release *current,
		       const struct rolling_series_info *target,
		       enum rolling_steps_mode mode);

void rolling_plan_release(struct rolling_plan *plan);

/*
 * What the policy's next series switch waits for, seen from a branch on
 * the policy's series `on`.  A series is named only when a tag names it
 * (never one worked out from the numbers: 6.19 was followed by 7.0,
 * QEMU 10.2 by 11.0), and a tag only when a tag of the branch shows how
 * it is spelled:
 *
 *  - next: the series the policy moves to next: for stable the first
 *    later one a tag names (a release's; for a scheme whose series
 *    follow one another, `successive` (kept), also the one mainline
 *    works on);
 *    for lts the next listed one;
 *  - wants_release: the switch still waits for a release of `next` with
 *    a patch level of at least release_patch (0: any release; 1: a point
 *    release), spelled release_tag when tags show how;
 *  - wants_after: it still waits for mainline to reach the series after
 *    `next` (stable: a pre-release, spelled after_tag; lts: its final),
 *    `after` when a tag names it.
 *
 * Returns 1 when a switch is in sight, 0 when none is (a pinned branch;
 * lts with no later listed series), or a negative error.  Free it with
 * rolling_next_switch_release().
 */
struct rolling_next_switch {
	enum rolling_policy_kind kind;
	enum rolling_switch_rule rule;
	int successive;
	int has_next;
	struct rolling_series next;
	int wants_release;
	uint32_t release_patch;
	char *release_tag;
	int wants_after;
	int has_after;
	struct rolling_series after;
	char *after_tag;
};

int rolling_policy_next_switch(struct rolling_next_switch *ns,
			       const struct rolling_policy *policy,
			       const struct rolling_tags *tags, struct rolling_patterns *patterns,
			       int successive, const struct rolling_series *on);

void rolling_next_switch_release(struct rolling_next_switch *ns);

void rolling_policy_release(struct rolling_policy *policy);

#endif
