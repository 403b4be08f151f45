#include <stdlib.h>
#include <string.h>
#include "detect.h"
#include "error.h"
#include "pattern.h"
#include "policy.h"
#include "strbuf.h"
#include "tags.h"

/*
 * A version-like tag and where it stands in history: the committer date
 * of the commit it leads to, then (for tags of one commit) its tagger's
 * date.  The commit comes first: an old release tagged again later
 * (signed, imported) is still of its era.
 */
struct dated_tag {
	const char *name;
	int dated;       /* 0: it leads to no commit, so it has no place */
	git_time_t commit_time, tagger_time;
};

/* The version-like tags, newest first, and how many of them are recent. */
struct tag_ages {
	git_strarray names;
	struct dated_tag *tags;
	size_t nr, recent_nr;
};

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

/*
 * Whether the preset reads this tag: a mainline tag, or the release tag
 * loading kept (not one skipped as a duplicate or for leading to no
 * commit).  Returns 1 or 0, or a negative error.
 */
static int reads_tag(struct rolling_patterns *patterns, const struct rolling_tags *tags,
		     const char *name)
{
	const struct rolling_release *release;
	struct rolling_version version;
	enum rolling_tag_kind kind;
	int err = rolling_patterns_classify(patterns, name, &kind, &version);

	if (err == ROLLING_PATTERN_ELIMIT)
		return err;
	if (err < 0 || kind == ROLLING_TAG_OTHER)
		return 0;   /* loading ignored it with a warning, held back */
	if (kind == ROLLING_TAG_MAINLINE)
		return 1;
	release = rolling_tags_find_version(tags, &version);
	return release && !strcmp(release->name, name);
}

static int count_recent_reads(struct rolling_preset_fit *fit, struct rolling_patterns *patterns,
			      const struct rolling_tags *tags, const struct tag_ages *ages)
{
	size_t i;
	int read;

	fit->recent_nr = ages->recent_nr;
	fit->recent_reads = 0;
	for (i = 0; i < ages->recent_nr; i++) {
		if ((read = reads_tag(patterns, tags, ages->tags[i].name)) < 0)
			return read;
		fit->recent_reads += read;
	}
	return 0;
}

static int try_preset(struct rolling_preset_fit *fit, git_repository *repo,
		      const struct tag_ages *ages)
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
		rolling_patterns_release(&patterns);
		return err;
	}
	fit->releases_nr = tags.releases_nr;
	fit->series_nr = tags.series_nr;
	fit->mainline_nr = tags.mainline_nr;
	fit->both_nr = tags.both_nr;
	fit->implausible = implausible(&tags);
	held = rolling_warnings_hold(1);
	err = count_recent_reads(fit, &patterns, &tags, ages);
	if (!err && !fit->implausible)
		err = stable_pick(&fit->pick, &tags, fit->preset);
	rolling_warnings_hold(held);
	rolling_tags_release(&tags);
	rolling_patterns_release(&patterns);
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

/*
 * Date the tag refs/tags/<name>.  A tag that cannot be read or leads to
 * no commit stays undated; dating never fails detection, which only
 * weighs the tags (init reads them again and says what is wrong).
 */
static int date_tag(struct dated_tag *tag, git_repository *repo, const char *name)
{
	struct strbuf refname = STRBUF_INIT;
	git_object *object = NULL, *commit = NULL;
	git_oid oid;

	memset(tag, 0, sizeof(*tag));
	tag->name = name;
	strbuf_addf(&refname, "refs/tags/%s", name);
	if (strbuf_oom(&refname))
		return rolling_error_nomem();
	if (!git_reference_name_to_id(&oid, repo, refname.buf) &&
	    !git_object_lookup(&object, repo, &oid, GIT_OBJECT_ANY) &&
	    !git_object_peel(&commit, object, GIT_OBJECT_COMMIT)) {
		tag->dated = 1;
		tag->commit_time = git_commit_time((git_commit *)commit);
		if (git_object_type(object) == GIT_OBJECT_TAG &&
		    git_tag_tagger((git_tag *)object))
			tag->tagger_time = git_tag_tagger((git_tag *)object)->when.time;
	}
	git_object_free(commit);
	git_object_free(object);
	strbuf_release(&refname);
	return 0;
}

/* Newest first; an undated tag before all, since nothing shows it is old. */
static int cmp_age(const struct dated_tag *a, const struct dated_tag *b)
{
	if (a->dated != b->dated)
		return a->dated - b->dated;
	if (a->commit_time != b->commit_time)
		return a->commit_time > b->commit_time ? -1 : 1;
	if (a->tagger_time != b->tagger_time)
		return a->tagger_time > b->tagger_time ? -1 : 1;
	return 0;
}

static int cmp_dated_tag(const void *a, const void *b)
{
	int c = cmp_age(a, b);

	return c ? c : strcmp(((const struct dated_tag *)a)->name,
			      ((const struct dated_tag *)b)->name);
}

/*
 * The newest third of the tags (ROLLING_DETECT_RECENT), and those as new
 * as the last of them: where every tag has one date, all of them.
 */
static size_t count_recent(const struct tag_ages *ages)
{
	size_t nr = (ages->nr * ROLLING_DETECT_RECENT_NUM + ROLLING_DETECT_RECENT_DEN - 1) /
		    ROLLING_DETECT_RECENT_DEN;

	while (nr && nr < ages->nr && !cmp_age(&ages->tags[nr - 1], &ages->tags[nr]))
		nr++;
	return nr;
}

static void tag_ages_free(struct tag_ages *ages)
{
	free(ages->tags);
	git_strarray_dispose(&ages->names);
	memset(ages, 0, sizeof(*ages));
}

static int read_tag_ages(struct tag_ages *ages, git_repository *repo)
{
	size_t i;
	int err;

	memset(ages, 0, sizeof(*ages));
	if ((err = git_tag_list(&ages->names, repo)) < 0)
		return rolling_git_error(err, "cannot read tags");
	if (!(ages->tags = calloc(ages->names.count + 1, sizeof(*ages->tags)))) {
		tag_ages_free(ages);
		return rolling_error_nomem();
	}
	for (i = 0; i < ages->names.count; i++) {
		if (!rolling_tag_is_version_like(ages->names.strings[i]))
			continue;
		if ((err = date_tag(&ages->tags[ages->nr++], repo, ages->names.strings[i])) < 0) {
			tag_ages_free(ages);
			return err;
		}
	}
	if (ages->nr)
		qsort(ages->tags, ages->nr, sizeof(*ages->tags), cmp_dated_tag);
	ages->recent_nr = count_recent(ages);
	return 0;
}

static int is_two_thirds(size_t reads, size_t of)
{
	/* Tags a preset reads are version-like, but a pattern may read more. */
	return reads && reads * ROLLING_DETECT_MAJORITY_DEN >=
			of * ROLLING_DETECT_MAJORITY_NUM;
}

int rolling_preset_fit_is_majority(const struct rolling_preset_fit *fit, size_t version_like)
{
	return is_two_thirds(tags_read(fit), version_like);
}

int rolling_preset_fit_is_recent_majority(const struct rolling_preset_fit *fit)
{
	return is_two_thirds(fit->recent_reads, fit->recent_nr);
}

int rolling_preset_fit_reads_enough(const struct rolling_preset_fit *fit, size_t version_like)
{
	return rolling_preset_fit_is_majority(fit, version_like) ||
	       rolling_preset_fit_is_recent_majority(fit);
}

static int try_presets(struct rolling_preset_fit *fits, const struct rolling_preset *presets,
		       size_t nr, git_repository *repo, const struct tag_ages *ages)
{
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		fits[i].preset = &presets[i];
		if ((err = try_preset(&fits[i], repo, ages)) < 0)
			return err;
	}
	return 0;
}

int rolling_preset_detect(struct rolling_preset_fit **fits, size_t *nr, size_t *version_like,
			  const struct rolling_preset_fit **best, git_repository *repo)
{
	const struct rolling_preset *presets = rolling_presets(nr);
	struct tag_ages ages;
	size_t i, ties = 0;
	int err;

	*best = NULL;
	if ((err = read_tag_ages(&ages, repo)) < 0)
		return err;
	*version_like = ages.nr;
	if (!(*fits = calloc(*nr, sizeof(**fits)))) {
		tag_ages_free(&ages);
		return rolling_error_nomem();
	}
	err = try_presets(*fits, presets, *nr, repo, &ages);
	tag_ages_free(&ages);
	if (err < 0) {
		rolling_preset_fits_free(*fits, *nr);
		*fits = NULL;
		return err;
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
	if (ties || (*best && !rolling_preset_fit_reads_enough(*best, *version_like)))
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
