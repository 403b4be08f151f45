#include <stdio.h>
#include <string.h>
#include "preset.h"
#include "strbuf.h"

/* Numbers never have leading zeros, so each version has one spelling. */
#define NUM "(?:0|[1-9][0-9]*)"
#define POS "[1-9][0-9]*"
#define FROM_2 "(?:[2-9]|[1-9][0-9]+)"
#define FROM_3 "(?:[3-9]|[1-9][0-9]+)"
#define FROM_10 "[1-9][0-9]+"

/*
 * Each scheme is checked against the project's own tags; the manual
 * (gitrolling(7), PRESETS) says where a project's practice differs from
 * what a rolling branch assumes.  Earlier eras with another numbering
 * are alternatives with the same group names (see pattern.h).
 */
static const struct rolling_preset presets[] = {
	{
		/* v6.6.4 releases, v6.7 and v6.8-rc1 mainline; before 3.0 v2.6.32.5, v2.6.33 */
		"linux", "Linux kernel (stable and longterm)", "v6.6.4", "v6.8-rc1",
		"v(?:(?<major>2)\\.(?<minor>6)\\.(?<sub>" NUM ")\\.(?<patch>" POS ")"
		"|(?<major>" FROM_3 ")\\.(?<minor>" NUM ")\\.(?<patch>" POS "))",
		"v(?:(?<major>2)\\.(?<minor>6)\\.(?<sub>" NUM ")"
		"|(?<major>" FROM_3 ")\\.(?<minor>" NUM "))(?:-rc(?<rc>" POS "))?",
		"4.4 4.9 4.14 4.19 5.4 5.10 5.15 6.1 6.6 6.12 6.18",
		"next-rc1",  /* kernel.org, "Active kernel releases" */
		"merge window",
	},
	{
		/* v255.4 releases; v256 and v256-rc1 on mainline */
		"systemd", "systemd (systemd-stable)", "v255.4", "v256-rc1",
		"v(?<major>" POS ")\\.(?<patch>" POS ")",
		"v(?<major>" POS ")(?:-rc(?<rc>" POS "))?",
		"", "first-point-release",  /* systemd docs/BACKPORTS.md: vNNN.X on vNNN-stable */
		"development cycle",
	},
	{
		/*
		 * v2.44.0 feature releases and v2.43.1 maintenance releases,
		 * v2.44.0-rc0 candidates.  Before 1.9: v1.8.5 and its
		 * v1.8.5.6, v1.8.5-rc0.  maint moves to v2.44.0 the day it is
		 * tagged (Documentation/howto/maintain-git.txt).
		 */
		"git", "Git (maint: the newest feature release)", "v2.43.1", "v2.44.0-rc0",
		"v(?:(?<major>1)\\.(?<minor>[0-8])\\.(?<sub>" NUM ")(?:\\.(?<patch>" POS "))?"
		"|(?<major>1)\\.(?<minor>9|[1-9][0-9]+)\\.(?<patch>" NUM ")"
		"|(?<major>" FROM_2 ")\\.(?<minor>" NUM ")\\.(?<patch>" NUM "))",
		"v(?:(?<major>1)\\.(?<minor>[0-8])\\.(?<sub>" NUM ")"
		"|(?<major>1)\\.(?<minor>9|[1-9][0-9]+)\\.0"
		"|(?<major>" FROM_2 ")\\.(?<minor>" NUM ")\\.0)-rc(?<rc>" NUM ")",
		"", "first-release",
		"development cycle",
	},
	{
		/* v8.2.0 and its v8.2.1 stable releases; v8.2.0-rc0 candidates */
		"qemu", "QEMU (the newest stable line)", "v8.1.3", "v8.2.0-rc0",
		"v(?<major>" NUM ")\\.(?<minor>" NUM ")\\.(?<patch>" NUM ")",
		"v(?<major>" NUM ")\\.(?<minor>" NUM ")\\.0-rc(?<rc>" NUM ")",
		"", "first-release",  /* QEMU docs/devel/stable-process.rst */
		"development cycle",
	},
	{
		/* v3.13.0 and its v3.13.1 bugfix releases, old finals v2.7; v3.13.0a1, b1, rc1 */
		"python", "CPython (the newest bugfix branch)", "v3.12.1", "v3.13.0b1",
		"v(?<major>" NUM ")\\.(?<minor>" NUM ")(?:\\.(?<patch>" NUM "))?",
		"v(?<major>" NUM ")\\.(?<minor>" NUM ")(?:\\.0)?(?:a|b|rc)(?<rc>" POS ")",
		"", "first-release",  /* devguide.python.org/versions/ */
		"development cycle",
	},
	{
		/* REL_17_0 and its REL_17_1 minor releases, REL_17_BETA1, REL_17_RC1; before 10 REL9_6_* */
		"postgresql", "PostgreSQL (the newest major version)", "REL_16_1", "REL_17_BETA1",
		"REL(?:_(?<major>" FROM_10 ")|(?<major>[1-9])_(?<minor>" NUM "))_(?<patch>" NUM ")",
		"REL(?:_(?<major>" FROM_10 ")|(?<major>[1-9])_(?<minor>" NUM "))"
		"_(?:BETA|RC)(?<rc>" POS ")",
		"", "first-release",  /* postgresql.org/support/versioning/ */
		"development cycle",
	},
};

#define PRESETS_NR (sizeof(presets) / sizeof(presets[0]))

const struct rolling_preset *rolling_preset_find(const char *name)
{
	size_t i;

	for (i = 0; i < PRESETS_NR; i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

const struct rolling_preset *rolling_preset_find_patterns(const char *release_re,
							  const char *mainline_re)
{
	size_t i;

	for (i = 0; i < PRESETS_NR; i++)
		if (!strcmp(presets[i].release_pattern, release_re) &&
		    !strcmp(presets[i].mainline_pattern, mainline_re))
			return &presets[i];
	return NULL;
}

const struct rolling_preset *rolling_presets(size_t *nr)
{
	*nr = PRESETS_NR;
	return presets;
}

void rolling_preset_names(struct strbuf *names)
{
	size_t i;

	for (i = 0; i < PRESETS_NR; i++)
		strbuf_addf(names, "%s%s", i ? ", " : "", presets[i].name);
}
