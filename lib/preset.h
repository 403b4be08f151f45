#ifndef ROLLING_PRESET_H
#define ROLLING_PRESET_H

/* Tag schemes of well-known projects, so users need not write patterns. */
struct rolling_preset {
	const char *name;
	const char *release_pattern;
	const char *mainline_pattern;
	const char *lts_series;    /* default rolling.<branch>.series for --lts */
};

/* NULL when there is no preset of that name. */
const struct rolling_preset *rolling_preset_find(const char *name);

/* Space-separated names, for messages. */
const char *rolling_preset_names(void);

#endif
