#ifndef ROLLING_INIT_PLAN_H
#define ROLLING_INIT_PLAN_H

#include <git2.h>
#include "branch.h"
#include "config.h"
#include "preset.h"
#include "tags.h"
#include "verify.h"

/*
 * What `git rolling init` decides before it creates, adopts or follows
 * a branch: whether the name is free, the configuration its options
 * make (the release a new branch starts at is the plan's:
 * rolling_branch_plan_start()), which remote and branch
 * --follow names, and what an adopted tip says about its identity.  The
 * command asks the user (preset detection), prints and decides to stop;
 * every function here returns 0 or a negative error with a message.
 */

/* init's options that become rolling.<branch>.*. */
struct rolling_init_settings {
	struct rolling_scheme_options scheme;
	int policy;              /* enum rolling_policy_kind */
	const char *series;      /* --series, for --lts */
	const char *pin;
	const char *ident;
	int signoff;
	int each;                /* steps = each; -1: not said (adopt reads the branch) */
	const char *switch_rule; /* --switch; NULL: the preset's, else the default */
};

/*
 * `git branch`'s rule for a new branch name (git check-ref-format
 * --branch, no leading '-'), taking no name git would expand (@{-1}).
 */
int rolling_init_check_branch_name(const char *name);

/*
 * A new branch must not exist yet (unless `force`); an adopted one (it
 * exists) must not be configured yet, nor a new one (unless `force`).
 * Neither may share its short name with a tag or another ref, even with
 * `force`: every later command would refuse it as ambiguous.
 */
int rolling_init_check_new(git_repository *repo, const char *branch, int force, int adopt);

/*
 * 1 when the scheme options name neither a preset nor patterns, so that
 * the preset must be detected from the tags; 0 when not; or an error
 * in the options.
 */
int rolling_init_needs_detection(const struct rolling_scheme_options *scheme);

/*
 * The configuration init writes for `branch`: the scheme's patterns, or
 * those of `detected` (the preset the caller detected when
 * rolling_init_needs_detection() said so); for the stable policy the
 * switch rule given, else that preset's, else the default (written, so
 * that a later change of a preset's rule never moves an existing
 * branch; lts does not use it); with --lts the series given,
 * else the preset's long-term series.  --series without --lts is an
 * error.  Free it with rolling_config_release(), also after an error.
 */
int rolling_init_config(struct rolling_config *cfg, const struct rolling_init_settings *s,
			const char *branch, const struct rolling_preset *detected);

/*
 * The tag patterns given to --follow: none, a preset's, or both
 * patterns, which must compile.
 */
int rolling_init_follow_patterns(const char **release_re, const char **mainline_re,
				 const struct rolling_scheme_options *scheme);

/*
 * Split --follow's "<remote>/<branch>" at the configured remote it
 * starts with (the longest one: remote names may hold slashes too);
 * the branch must be a valid branch name, short enough that the refs
 * following it makes fit libgit2's limit.  *remote is the caller's;
 * *branch points into `followed`.
 */
int rolling_init_split_followed(char **remote, const char **branch, git_repository *repo,
				const char *followed);

/*
 * What an adopted tip, a rolling merge, says about how it was made,
 * where it differs from the branch's configuration: the next merges are
 * byte-identical to the branch's own only with the same identity and
 * trailer.
 */
struct rolling_adopt_mismatch {
	char *name, *email;      /* the tip's committer, when not the branch's ident */
	int signoff;             /* -1: as configured; else whether the tip has the trailer */
};

/* Nothing is set when the tip is no merge or cannot be read. */
int rolling_init_adopt_mismatch(struct rolling_adopt_mismatch *m, git_repository *repo,
				const struct rolling_branch *b, const git_oid *tip);

void rolling_adopt_mismatch_release(struct rolling_adopt_mismatch *m);

/*
 * The cadence an adopted branch was made with, from its verified steps
 * (`verified`, base first) and the release tags: how many steps merged
 * the release right after the one before them in the same series, and
 * how many passed over a release of their series that is tagged.  A
 * branch made with --each never passes one over; one made with the
 * default merges the newest release only, and passes over every release
 * that came out between two runs.
 */
struct rolling_adopt_cadence {
	size_t in_a_row;
	size_t skipped;
};

/* So many steps in a row, none passed over, read as --each. */
#define ROLLING_ADOPT_EACH_MIN 2

void rolling_init_adopt_cadence(struct rolling_adopt_cadence *c,
				const struct rolling_verify_result *verified,
				const struct rolling_tags *tags);

/* Whether the cadence is that of --each (see ROLLING_ADOPT_EACH_MIN). */
int rolling_init_adopt_is_each(const struct rolling_adopt_cadence *c);

#endif
