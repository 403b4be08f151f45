#ifndef ROLLING_DETECT_H
#define ROLLING_DETECT_H

#include <git2.h>
#include "preset.h"

/*
 * How well a preset reads a repository's tags, for `init` without
 * --preset: how many tags it reads, whether what it reads is plausible,
 * and the release the stable policy would start at.
 */
struct rolling_preset_fit {
	const struct rolling_preset *preset;
	size_t releases_nr, series_nr, mainline_nr, both_nr;
	const char *implausible;    /* why it cannot be this scheme, or NULL */
	char *pick;                 /* the release stable would start at, or NULL */
	/* Of the newest version-like tags (recent_nr of them), those it reads. */
	size_t recent_nr, recent_reads;
};

/* The tags read by a fit: its releases and mainline tags. */
size_t rolling_preset_fit_reads(const struct rolling_preset_fit *fit);

/*
 * Whether a tag name looks like a version: its first character that is
 * not a letter, '_', '-' or '.' is a digit ("v6.6", "REL_16_1",
 * "1.3.12", "gitgui-0.19.0"; not "junio-gpg-pub").  Detection measures a
 * preset against these.
 */
int rolling_tag_is_version_like(const char *name);

/*
 * Try every preset on the tags of `repo`.  Fills *fits with one entry
 * per preset (free with rolling_preset_fits_free), *version_like with
 * the number of version-like tags, and sets *best to the one that fits,
 * or to NULL when none or several fit, or the best reads too few: a
 * preset fits when its reading is plausible (release and mainline tags,
 * no tag read as both, no release series newer than mainline) and it
 * reads more tags than any other plausible one.  It is chosen only when
 * it reads a clear majority, at least two thirds
 * (ROLLING_DETECT_MAJORITY), of the version-like tags, or of the newest
 * third of them (ROLLING_DETECT_RECENT): newest by the date of the
 * commit each leads to, then by its tagger's date, with the tags as new
 * as the last of that third and those that lead to no commit counted
 * in.  A scheme that reads 10 of redis's 309 tags, its oldest, is a
 * coincidence, not the scheme.  One that reads systemd-stable's newest
 * tags is the scheme, though 273 of its 640 are of udev's and early
 * systemd's spellings: a person tells a project's scheme by its newest
 * tags, what it calls its releases now, and takes older ones of other
 * shapes for history.  A third is enough of them to show the practice,
 * yet too many for a few stray new tags to decide; all the tags still
 * count on their own where a few stray ones are the newest of a young
 * repository's handful.
 */
#define ROLLING_DETECT_MAJORITY_NUM 2
#define ROLLING_DETECT_MAJORITY_DEN 3
#define ROLLING_DETECT_RECENT_NUM 1
#define ROLLING_DETECT_RECENT_DEN 3

int rolling_preset_detect(struct rolling_preset_fit **fits, size_t *nr, size_t *version_like,
			  const struct rolling_preset_fit **best, git_repository *repo);

/* Whether a fit reads a clear majority of all the version-like tags. */
int rolling_preset_fit_is_majority(const struct rolling_preset_fit *fit, size_t version_like);

/* Whether it reads a clear majority of the newest third of them. */
int rolling_preset_fit_is_recent_majority(const struct rolling_preset_fit *fit);

/* Whether it reads either: enough to be chosen, if it reads the most. */
int rolling_preset_fit_reads_enough(const struct rolling_preset_fit *fit, size_t version_like);

void rolling_preset_fits_free(struct rolling_preset_fit *fits, size_t nr);

#endif
