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
};

/*
 * Try every preset on the tags of `repo`.  Fills *fits with one entry
 * per preset (free with rolling_preset_fits_free) and sets *best to the
 * one that fits, or to NULL when none or several fit: a preset fits when
 * its reading is plausible (release and mainline tags, no tag read as
 * both, no release series newer than mainline) and it reads more tags
 * than any other plausible one.
 */
int rolling_preset_detect(struct rolling_preset_fit **fits, size_t *nr,
			  const struct rolling_preset_fit **best, git_repository *repo);

void rolling_preset_fits_free(struct rolling_preset_fit *fits, size_t nr);

#endif
