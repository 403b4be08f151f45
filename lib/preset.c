#include <string.h>
#include "preset.h"

/* Numbers never have leading zeros, so each version has one spelling. */
#define NUM "(?:0|[1-9][0-9]*)"
#define POS "[1-9][0-9]*"

static const struct rolling_preset presets[] = {
	{
		/* v6.6.4 releases; v6.7 and v6.8-rc1 on mainline */
		"linux",
		"v(?<major>" NUM ")\\.(?<minor>" NUM ")\\.(?<patch>" POS ")",
		"v(?<major>" NUM ")\\.(?<minor>" NUM ")(?:-rc(?<rc>" POS "))?",
		"4.4 4.9 4.14 4.19 5.4 5.10 5.15 6.1 6.6 6.12 6.18",
	},
	{
		/* v255.4 releases; v256 and v256-rc1 on mainline */
		"systemd",
		"v(?<major>" POS ")\\.(?<patch>" POS ")",
		"v(?<major>" POS ")(?:-rc(?<rc>" POS "))?",
		"",
	},
};

const struct rolling_preset *rolling_preset_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

const char *rolling_preset_names(void)
{
	return "linux, systemd";
}
