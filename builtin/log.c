/*
 * git rolling log: the steps of a rolling branch, newest first, each with
 * what it brought: the number of commits new to the branch, and for a
 * series switch the merge window that came with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/json-writer.h"
#include "../cli/text.h"
#include "../cli/wrapper.h"
#include "../lib/abbrev.h"
#include "../lib/branch.h"
#include "../cli/progress.h"
#include "../lib/repo.h"
#include "../lib/step-count.h"
#include "../cli/step-format.h"
#include "../lib/steps.h"
#include "../lib/revision.h"

static const char *const log_usage[] = {
	"git rolling log [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                       [--since <rev>] [--switches] [--reverse]\n"
	"                       [-<number> | -n <number> | --max-count <number>] [--json]\n"
	"                       [--[no-]progress] [<branch-or-rev>...]",
	NULL,
};

#define JSON_FORMAT_VERSION 1

struct log_options {
	struct rolling_scheme_options scheme;
	const char *since;
	int switches;
	int reverse;
	int max_count;
	int json;
	int progress;
};

/* One branch as shown: its steps, which of them to show, what each brought. */
struct shown_branch {
	const char *name;
	struct rolling_branch b;
	git_oid tip;
	struct rolling_steps steps;
	size_t *counts;
	size_t *shown;       /* indices into steps.v, in display order */
	size_t shown_nr;
};

/* --- which steps ------------------------------------------------------- */

/* The oldest step to show: the one after --since, else the base. */
static size_t first_step(const struct shown_branch *s, git_repository *repo, const char *since)
{
	git_oid commit;
	size_t index;

	if (!since)
		return 0;
	if (rolling_resolve_commit(&commit, repo, since) < 0)
		die_error_context("--since");
	if (!rolling_steps_find(&s->steps, &commit, &index))
		die("--since: '%s' is not a step of %s", since, s->name);
	return index + 1;
}

static void choose_steps(struct shown_branch *s, git_repository *repo,
			 const struct log_options *o)
{
	size_t first = first_step(s, repo, o->since), i, nr = 0;

	s->shown = xcalloc(s->steps.nr + 1, sizeof(*s->shown));
	/* Newest first, and -<n> keeps the newest n, as git log does before --reverse. */
	for (i = s->steps.nr; i-- > first;) {
		if (o->max_count >= 0 && nr == (size_t)o->max_count)
			break;
		if (o->switches && !s->steps.v[i].series_switch)
			continue;
		s->shown[nr++] = i;
	}
	s->shown_nr = nr;
	for (i = 0; o->reverse && i < nr / 2; i++) {
		size_t t = s->shown[i];

		s->shown[i] = s->shown[nr - 1 - i];
		s->shown[nr - 1 - i] = t;
	}
}

/* --- what they brought ------------------------------------------------- */

/*
 * One walk over the range of shown steps; for --switches, one per switch,
 * since only the merge windows between them are wanted.
 */
static void count_steps(struct shown_branch *s, git_repository *repo,
			const struct log_options *o)
{
	struct rolling_progress *progress;
	size_t oldest = s->steps.nr, i;

	s->counts = xcalloc(s->steps.nr, sizeof(*s->counts));
	for (i = 0; i < s->shown_nr; i++)
		if (s->shown[i] < oldest)
			oldest = s->shown[i];
	if (oldest >= s->steps.nr)
		return;
	if (oldest == 0)
		oldest = 1;
	progress = rolling_progress_start("Counting commits", s->steps.nr - oldest,
					  rolling_progress_wanted(o->progress, 0));
	if (!o->switches) {
		if (rolling_steps_count(s->counts, repo, &s->steps, oldest - 1, s->steps.nr - 1,
					progress) < 0)
			die_last_error();
	} else {
		for (i = 0; i < s->shown_nr; i++)
			if (rolling_steps_count(s->counts, repo, &s->steps, s->shown[i] - 1,
						s->shown[i], NULL) < 0)
				die_last_error();
	}
	rolling_progress_stop(&progress);
}

/* --- the human format -------------------------------------------------- */

/* 14872 as "14,872". */
static const char *thousands(char *buf, size_t size, size_t n)
{
	char digits[32];
	size_t len, i, out = 0;

	len = (size_t)snprintf(digits, sizeof(digits), "%zu", n);
	for (i = 0; i < len && out + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
	return buf;
}

/*
 * "the 6.8 merge window", or "the 6.7 and 6.8 merge windows" when a
 * switch skips series; in each preset's words ("the 18 development
 * cycle"), and neutral ones for patterns of no preset.
 */
static void print_windows(const struct shown_branch *s, size_t i)
{
	const struct rolling_preset *preset =
		rolling_preset_find_patterns(s->b.config.release_pattern, s->b.config.mainline_pattern);
	const char *cycle = preset && preset->cycle ? preset->cycle : ROLLING_DEFAULT_CYCLE;
	const struct rolling_tags *tags = &s->b.tags;
	const struct rolling_series *from = &s->steps.v[i - 1].release->version.series;
	const struct rolling_series *to = &s->steps.v[i].release->version.series;
	char name[ROLLING_SERIES_BUFSZ];
	size_t k, nr = 0, seen = 0;

	for (k = 0; k < tags->series_nr; k++)
		if (rolling_series_cmp(&tags->series[k].series, from) > 0 &&
		    rolling_series_cmp(&tags->series[k].series, to) <= 0)
			nr++;
	printf(", includes the ");
	for (k = 0; k < tags->series_nr; k++) {
		if (rolling_series_cmp(&tags->series[k].series, from) <= 0 ||
		    rolling_series_cmp(&tags->series[k].series, to) > 0)
			continue;
		seen++;
		printf("%s%s", seen == 1 ? "" : seen == nr ? " and " : ", ",
		       rolling_series_format(name, &tags->series[k].series));
	}
	printf(" %s%s", cycle, nr > 1 ? "s" : "");
}

static void print_brought(const struct shown_branch *s, size_t i)
{
	char from[ROLLING_SERIES_BUFSZ], to[ROLLING_SERIES_BUFSZ], n[32];
	size_t count = s->counts[i];

	if (s->steps.v[i].is_base) {
		printf("base");
		return;
	}
	if (s->steps.v[i].series_switch) {
		printf("series %s -> %s",
		       rolling_series_format(from, &s->steps.v[i - 1].release->version.series),
		       rolling_series_format(to, &s->steps.v[i].release->version.series));
		print_windows(s, i);
		printf(": ");
	}
	printf("%s commit%s", thousands(n, sizeof(n), count), count == 1 ? "" : "s");
}

static void print_human(const struct shown_branch *s, git_repository *repo, int start,
			int prefix)
{
	char (*ids)[GIT_OID_HEXSZ + 1];
	char day[32];
	int name_width = 0, id_width = 0;
	size_t k;

	ids = xcalloc(s->shown_nr + 1, sizeof(*ids));
	for (k = 0; k < s->shown_nr; k++) {
		const struct rolling_step *step = &s->steps.v[s->shown[k]];
		int len = (int)strlen(qtext(step->release->name));

		if (rolling_abbrev_oid(ids[k], repo, start, &step->commit) < 0)
			die_last_error();
		if (len > name_width)
			name_width = len;
		if ((int)strlen(ids[k]) > id_width)
			id_width = (int)strlen(ids[k]);
	}
	for (k = 0; k < s->shown_nr; k++) {
		const struct rolling_step *step = &s->steps.v[s->shown[k]];

		if (prefix)
			printf("%s: ", qtext(s->name));
		printf("%s %-*s %-*s ", rolling_format_day(day, sizeof(day), step->time, step->offset),
		       name_width, qtext(step->release->name), id_width, ids[k]);
		print_brought(s, s->shown[k]);
		putchar('\n');
	}
	free(ids);
}

/* --- the JSON document ------------------------------------------------- */

static json_object *json_date(git_time_t time, int offset)
{
	char buf[64];

	return json_text(rolling_format_iso_time(buf, sizeof(buf), time, offset));
}

static json_object *json_step(const struct shown_branch *s, size_t i)
{
	const struct rolling_step *step = &s->steps.v[i];
	json_object *object = json_checked(json_object_new_object());
	char series[ROLLING_SERIES_BUFSZ];

	json_add(object, "commit", json_oid(&step->commit));
	json_add(object, "release", json_text(step->release->name));
	json_add(object, "release_commit", json_oid(&step->release->commit));
	json_add(object, "series",
		 json_text(rolling_series_format(series, &step->release->version.series)));
	json_add(object, "date", json_date(step->time, step->offset));
	json_add(object, "base", json_boolean(step->is_base));
	json_add(object, "series_switch", json_boolean(step->series_switch));
	json_add(object, "from_series",
		 step->is_base ? NULL :
		 json_text(rolling_series_format(series, &s->steps.v[i - 1].release->version.series)));
	json_add(object, "commits", step->is_base ? NULL : json_size(s->counts[i]));
	return object;
}

static json_object *json_branch(const struct shown_branch *s)
{
	json_object *object = json_checked(json_object_new_object());
	json_object *steps = json_checked(json_object_new_array());
	size_t k;

	json_add(object, "name", json_text(s->name));
	json_add(object, "tip", json_oid(&s->tip));
	for (k = 0; k < s->shown_nr; k++)
		json_append(steps, json_step(s, s->shown[k]));
	json_add(object, "steps", steps);
	return object;
}

/* --- the command ------------------------------------------------------- */

static void open_branch(struct shown_branch *s, git_repository *repo, const char *name,
			const struct log_options *o)
{
	struct rolling_pattern_source from;

	memset(s, 0, sizeof(*s));
	s->name = name;
	if (rolling_branch_open_any(&s->b, &s->tip, &from, repo, name, &o->scheme) < 0)
		die_last_error();
	if (rolling_steps_list(&s->steps, repo, &s->tip, &s->b.tags, &s->b.patterns) < 0)
		die_error_context("%s", name);
}

static void free_branch(struct shown_branch *s)
{
	free(s->counts);
	free(s->shown);
	rolling_steps_release(&s->steps);
	rolling_branch_release(&s->b);
}

static int cmd_log(int argc, const char **argv)
{
	struct log_options o = { .max_count = -1, .progress = -1 };
	const struct rolling_option options[] = {
		OPT_TAG_SCHEME(&o.scheme, "read the branches with a preset's tag patterns"),
		OPT_STRING(0, "since", &o.since, "rev", "show only the steps after this one"),
		OPT_SWITCH(0, "switches", &o.switches, "show only series switches"),
		OPT_SWITCH(0, "reverse", &o.reverse, "show the oldest step first"),
		OPT_MAX_COUNT(&o.max_count),
		OPT_SWITCH(0, "json", &o.json, "print a JSON document for scripts"),
		OPT_BOOL(0, "progress", &o.progress, "show progress while counting commits"),
		OPT_END(),
	};
	git_repository *repo;
	json_object *root = NULL, *list = NULL;
	char **branches = NULL;
	size_t nr, i;
	int len, start;

	argc = parse_options_or_usage(argc, argv, "log", options, log_usage);
	if (o.max_count < -1)
		o.max_count = -1;
	/*
	 * The count reads each commit once: libgit2's object cache (up to
	 * 256 MiB of commits) would only cost memory and time.
	 */
	if (git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT, (size_t)0) < 0)
		die_last_error();
	if (rolling_repo_open(&repo) < 0)
		die_last_error();
	if (rolling_repo_warn_hazards(repo) < 0 || rolling_abbrev_config(&len, repo) < 0 ||
	    rolling_abbrev_start(&start, repo, len) < 0)
		die_last_error();
	if (rolling_config_branches_or_named(&branches, &nr, repo, argv, (size_t)argc) < 0)
		die("%s; name a branch (and --preset for one git rolling does not manage)",
		    rolling_last_error());
	if (o.json) {
		root = json_checked(json_object_new_object());
		list = json_checked(json_object_new_array());
		json_add(root, "version", json_checked(json_object_new_int(JSON_FORMAT_VERSION)));
	}
	for (i = 0; i < nr; i++) {
		struct shown_branch s;

		open_branch(&s, repo, branches[i], &o);
		choose_steps(&s, repo, &o);
		count_steps(&s, repo, &o);
		if (o.json) {
			json_append(list, json_branch(&s));
		} else {
			print_human(&s, repo, start, nr > 1);
		}
		free_branch(&s);
	}
	if (o.json) {
		json_add(root, "branches", list);
		json_print_document(root);
	}
	rolling_config_free_branches(branches, nr);
	rolling_repo_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_log)
