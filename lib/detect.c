#include <stdlib.h>
#include <string.h>
#include "detect.h"
#include "error.h"
#include "pattern.h"
#include "policy.h"
#include "tags.h"

static const char *implausible(const struct rolling_tags *tags)
{
	if (!tags->releases_nr)
		return "no release tags";
	if (!tags->mainline_nr)
		return "no mainline tags";
	if (tags->both_nr)
		return "tags read as both release and mainline";
	/* A stable series forks at a mainline release: none can be newer. */
	if (rolling_series_cmp(&tags->series[tags->series_nr - 1].series,
			       &tags->newest_mainline) > 0)
		return "releases of a series mainline never tagged";
	return NULL;
}

/* The release the stable policy starts at, as init would pick it, by the preset's rule. */
static int stable_pick(char **pick, const struct rolling_tags *tags,
		       const struct rolling_preset *preset)
{
	const struct rolling_series_info *series;
	const struct rolling_release *release;
	struct rolling_policy stable;
	int err;

	memset(&stable, 0, sizeof(stable));
	stable.kind = ROLLING_POLICY_STABLE;
	*pick = NULL;
	if ((err = rolling_switch_rule_parse(&stable.rule, preset->switch_rule,
					     preset->name)) < 0)
		return err;
	if (rolling_policy_series(&series, &stable, tags) < 0 ||
	    !(release = rolling_series_newest(tags, series)))
		return 0;
	if (!(*pick = strdup(release->name)))
		return rolling_error_nomem();
	return 0;
}

static int try_preset(struct rolling_preset_fit *fit, git_repository *repo)
{
	struct rolling_patterns patterns;
	struct rolling_tags tags;
	int err, held;

	if ((err = rolling_patterns_compile(&patterns, fit->preset->release_pattern, "release",
					    fit->preset->mainline_pattern, "mainline")) < 0)
		return err;
	/* A tag that is no commit is reported once, by the command that uses it. */
	held = rolling_warnings_hold(1);
	err = rolling_tags_load(&tags, repo, &patterns);
	rolling_warnings_hold(held);
	if (err < 0) {
		rolling_patterns_free(&patterns);
		return err;
	}
	fit->releases_nr = tags.releases_nr;
	fit->series_nr = tags.series_nr;
	fit->mainline_nr = tags.mainline_nr;
	fit->both_nr = tags.both_nr;
	fit->implausible = implausible(&tags);
	held = rolling_warnings_hold(1);
	err = fit->implausible ? 0 : stable_pick(&fit->pick, &tags, fit->preset);
	rolling_warnings_hold(held);
	rolling_tags_free(&tags);
	rolling_patterns_free(&patterns);
	return err;
}

size_t rolling_preset_fit_reads(const struct rolling_preset_fit *fit)
{
	return fit->releases_nr + fit->mainline_nr;
}

static size_t tags_read(const struct rolling_preset_fit *fit)
{
	return rolling_preset_fit_reads(fit);
}

int rolling_tag_is_version_like(const char *name)
{
	for (; *name; name++) {
		if (*name >= '0' && *name <= '9')
			return 1;
		if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		      *name == '_' || *name == '-' || *name == '.'))
			return 0;
	}
	return 0;
}

static int count_version_like(size_t *count, git_repository *repo)
{
	git_strarray names = { 0 };
	size_t i;
	int err;

	*count = 0;
	if ((err = git_tag_list(&names, repo)) < 0)
		return rolling_git_error(err, "cannot read tags");
	for (i = 0; i < names.count; i++)
		*count += rolling_tag_is_version_like(names.strings[i]);
	git_strarray_dispose(&names);
	return 0;
}

int rolling_preset_fit_is_majority(const struct rolling_preset_fit *fit, size_t version_like)
{
	size_t reads = tags_read(fit);

	/* Tags a preset reads are version-like, but a pattern may read more. */
	return reads && reads * ROLLING_DETECT_MAJORITY_DEN >=
			version_like * ROLLING_DETECT_MAJORITY_NUM;
}

int rolling_preset_detect(struct rolling_preset_fit **fits, size_t *nr, size_t *version_like,
			  const struct rolling_preset_fit **best, git_repository *repo)
{
	const struct rolling_preset *presets = rolling_presets(nr);
	size_t i, ties = 0;
	int err;

	*best = NULL;
	if ((err = count_version_like(version_like, repo)) < 0)
		return err;
	if (!(*fits = calloc(*nr, sizeof(**fits))))
		return rolling_error_nomem();
	for (i = 0; i < *nr; i++) {
		(*fits)[i].preset = &presets[i];
		if ((err = try_preset(&(*fits)[i], repo)) < 0) {
			rolling_preset_fits_free(*fits, *nr);
			*fits = NULL;
			return err;
		}
	}
	for (i = 0; i < *nr; i++) {
		const struct rolling_preset_fit *fit = &(*fits)[i];

		if (fit->implausible)
			continue;
		if (!*best || tags_read(fit) > tags_read(*best)) {
			*best = fit;
			ties = 0;
		} else if (tags_read(fit) == tags_read(*best)) {
			ties++;
		}
	}
	if (ties || (*best && !rolling_preset_fit_is_majority(*best, *version_like)))
		*best = NULL;
	return 0;
}

void rolling_preset_fits_free(struct rolling_preset_fit *fits, size_t nr)
{
	size_t i;

	for (i = 0; fits && i < nr; i++)
		free(fits[i].pick);
	free(fits);
}
