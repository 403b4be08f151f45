/*
 * git rolling verify: prove that a rolling branch holds nothing but the
 * releases' own commits, unchanged, joined by content-free merges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include <json.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/wrapper.h"
#include "../lib/branch.h"
#include "../lib/repo.h"
#include "../cli/progress.h"
#include "../lib/verify.h"
#include "../cli/verify-report.h"
#include "../cli/color.h"
#include "../lib/utf8.h"
#include "../lib/revision.h"

static const char *const verify_usage[] = {
	"git rolling verify [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                          [--since <rev>] [--rebuild] [--signatures] [--[no-]progress]\n"
	"                          [--json] [-q]\n"
	"                          [<branch-or-rev>...]",
	NULL,
};

#define JSON_FORMAT_VERSION 1

struct verify_options {
	struct rolling_scheme_options scheme;
	const char *since;
	int rebuild;
	int signatures;
	int progress;
	int json;
	int quiet;
	int color;
};

/* One branch or revision to verify, resolved before any is verified. */
struct target {
	const char *name;
	const char *pattern_source;   /* "options", "preset", "config" or "default" */
	const char *preset;           /* the preset whose patterns are used, or NULL */
	struct rolling_branch b;
	git_oid tip;
	git_oid since;
	struct rolling_verify_result result;
};

/* The patterns come from the options, the branch's configuration or the linux preset. */
static void open_target(struct target *t, git_repository *repo, const char *name,
			const struct verify_options *o)
{
	struct rolling_pattern_source from;

	t->name = name;
	if (rolling_branch_open_any(&t->b, &t->tip, &from, repo, name, &o->scheme) < 0)
		die_last_error();
	t->pattern_source = from.source;
	t->preset = from.preset;
}

static void resolve_since(struct target *t, git_repository *repo, const char *since)
{
	if (rolling_resolve_commit(&t->since, repo, since) < 0)
		die_error_context("--since");
}

static const char *series_name(char *buf, const struct rolling_release *release)
{
	return rolling_series_format(buf, ROLLING_SERIES_BUFSZ, &release->version.series);
}

/* --- the JSON document ------------------------------------------------- */

static json_object *checked(json_object *value)
{
	if (!value)
		die("out of memory");
	return value;
}

static void add(json_object *object, const char *key, json_object *value)
{
	if (json_object_object_add(object, key, value) < 0)
		die("out of memory");
}

static void append(json_object *array, json_object *value)
{
	if (json_object_array_add(array, value) < 0)
		die("out of memory");
}

/*
 * JSON text is UTF-8, commit subjects and ref names are bytes: what is
 * not UTF-8 becomes U+FFFD, so that the document always parses.
 */
static json_object *json_text(const char *s)
{
	char *valid = rolling_utf8_sanitize(s);
	json_object *value;

	if (!valid)
		die("out of memory");
	value = checked(json_object_new_string(valid));
	free(valid);
	return value;
}

static json_object *json_oid(const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	return checked(json_object_new_string(git_oid_tostr(hex, sizeof(hex), oid)));
}

static json_object *json_string_or_null(const char *s)
{
	return s ? json_text(s) : NULL;
}

static json_object *json_release(const git_oid *commit, const struct rolling_release *release)
{
	json_object *object = checked(json_object_new_object());

	add(object, "commit", json_oid(commit));
	add(object, "release", json_string_or_null(release ? release->name : NULL));
	return object;
}

static json_object *json_merges(const struct rolling_verify_result *r)
{
	json_object *merges = checked(json_object_new_array());
	size_t i;

	for (i = 0; i < r->steps_nr; i++)
		append(merges, json_release(&r->steps[i].merge, r->steps[i].release));
	return merges;
}

static json_object *json_switches(const struct target *t)
{
	const struct rolling_verify_result *r = &t->result;
	json_object *switches = checked(json_object_new_array());
	char series[ROLLING_SERIES_BUFSZ];
	size_t i;

	for (i = 0; i < r->switches_nr; i++) {
		const struct rolling_verify_switch *s = &r->switches[i];
		json_object *object = checked(json_object_new_object());

		add(object, "commit", json_oid(&s->merge));
		add(object, "from", json_text(s->from->name));
		add(object, "to", json_text(s->to->name));
		add(object, "from_series",
		    json_text(series_name(series, s->from)));
		add(object, "to_series",
		    json_text(series_name(series, s->to)));
		append(switches, object);
	}
	return switches;
}

static json_object *json_failures(const struct rolling_verify_result *r)
{
	json_object *failures = checked(json_object_new_array());
	size_t i;

	for (i = 0; i < r->failures_nr; i++) {
		const struct rolling_verify_failure *f = &r->failures[i];
		json_object *object = checked(json_object_new_object());

		add(object, "commit", json_oid(&f->commit));
		add(object, "check",
		    json_text(rolling_verify_check_name(f->check)));
		add(object, "expected", json_text(f->expected));
		add(object, "found", json_text(f->found));
		append(failures, object);
	}
	return failures;
}

static json_object *json_hazards(unsigned hazards)
{
	json_object *list = checked(json_object_new_array());

	if (hazards & ROLLING_HAZARD_REPLACE)
		append(list, json_text("replace"));
	if (hazards & ROLLING_HAZARD_GRAFTS)
		append(list, json_text("grafts"));
	if (hazards & ROLLING_HAZARD_SHALLOW)
		append(list, json_text("shallow"));
	return list;
}

static json_object *json_patterns(const struct target *t)
{
	json_object *object = checked(json_object_new_object());

	add(object, "source", json_text(t->pattern_source));
	add(object, "preset", json_string_or_null(t->preset));
	add(object, "release", json_text(t->b.config.release_pattern));
	add(object, "mainline", json_text(t->b.config.mainline_pattern));
	return object;
}

static json_object *json_since(const struct target *t, const struct verify_options *o)
{
	json_object *object;

	if (!o->since)
		return NULL;
	object = json_release(&t->since, t->result.since_release);
	add(object, "found", checked(json_object_new_boolean(t->result.since_found)));
	return object;
}

static json_object *json_target(const struct target *t, const struct verify_options *o)
{
	const struct rolling_verify_result *r = &t->result;
	json_object *object = checked(json_object_new_object());

	add(object, "name", json_text(t->name));
	add(object, "verified", checked(json_object_new_boolean(!r->failures_nr)));
	add(object, "tip", json_oid(&r->tip));
	add(object, "tip_release", json_string_or_null(r->tip_release ? r->tip_release->name : NULL));
	add(object, "base", r->has_base ? json_release(&r->base, r->base_release) : NULL);
	add(object, "since", json_since(t, o));
	add(object, "steps", checked(json_object_new_int64((int64_t)r->steps_nr)));
	add(object, "merges", json_merges(r));
	add(object, "series_switches", json_switches(t));
	add(object, "rebuild", checked(json_object_new_boolean(o->rebuild)));
	add(object, "signatures", checked(json_object_new_boolean(o->signatures)));
	add(object, "signatures_good", checked(json_object_new_int64((int64_t)r->signatures_good)));
	add(object, "hazards", json_hazards(r->hazards));
	add(object, "patterns", json_patterns(t));
	add(object, "failures", json_failures(r));
	add(object, "truncated", checked(json_object_new_boolean(r->truncated)));
	return object;
}

static void print_json(const struct target *targets, size_t nr, const struct verify_options *o,
		       int verified)
{
	json_object *root = checked(json_object_new_object());
	json_object *branches = checked(json_object_new_array());
	size_t i;

	add(root, "version", checked(json_object_new_int(JSON_FORMAT_VERSION)));
	add(root, "verified", checked(json_object_new_boolean(verified)));
	for (i = 0; i < nr; i++)
		append(branches, json_target(&targets[i], o));
	add(root, "branches", branches);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* --- the command ------------------------------------------------------- */

static void verify_target(struct target *t, git_repository *repo, const struct verify_options *o)
{
	/* As git's commands: --quiet silences the meter unless --progress asks for it. */
	int progress = o->quiet && o->progress < 0 ? 0 : rolling_progress_wanted(o->progress);
	struct rolling_verify_options vo = { o->since ? &t->since : NULL, o->rebuild, o->signatures,
					     progress };

	struct rolling_verify_report report = { t->name, &t->result, &t->b.tags,
						o->since ? &t->since : NULL, o->rebuild,
						o->signatures, o->color };

	if (rolling_verify(&t->result, repo, &t->tip, &t->b.tags, &t->b.patterns, &vo) < 0)
		die_error_context("%s", t->name);
	if (o->json)
		return;
	rolling_verify_print_failures(&report);
	if (o->quiet)
		return;
	if (!strcmp(t->pattern_source, "default"))
		printf("%s: not a configured rolling branch: tags read with the %s preset"
		       " (choose with --preset or --release-pattern)\n", t->name, t->preset);
	rolling_verify_print_report(&report);
}

static void free_target(struct target *t)
{
	rolling_verify_free(&t->result);
	rolling_branch_free(&t->b);
}

static int cmd_verify(int argc, const char **argv)
{
	struct verify_options o = { .progress = -1 };
	const struct rolling_option options[] = {
		OPT_TAG_SCHEME(&o.scheme, "read release tags as this project names them "
			       "(see git rolling init --list-presets)"),
		OPT_STRING(0, "since", &o.since, "rev",
			   "check only the steps after this earlier tip, which must be on the chain"),
		OPT_BOOL(0, "rebuild", &o.rebuild,
			 "recompute every merge and compare the commit ids"),
		OPT_BOOL(0, "signatures", &o.signatures,
			 "verify the signatures of the release tags merged"),
		OPT_BOOL(0, "progress", &o.progress,
			 "show progress while git verifies the signatures"),
		OPT_BOOL(0, "json", &o.json, "print one JSON document"),
		OPT__QUIET(&o.quiet),
		OPT_END(),
	};
	git_repository *repo;
	struct target *targets;
	char **branches = NULL;
	size_t nr, i, failed = 0;

	argc = parse_options_or_usage(argc, argv, "verify", options, verify_usage);
	if (rolling_repo_open(&repo) < 0 || rolling_want_color(&o.color, repo) < 0)
		die_last_error();
	if (rolling_config_branches_or_named(&branches, &nr, repo, argv, (size_t)argc) < 0)
		die("%s; name a branch or revision to verify", rolling_last_error());
	if (o.since && nr != 1)
		die("--since needs exactly one branch or revision");
	targets = xcalloc(nr, sizeof(*targets));
	/* Resolve every name before verifying any: a typo is fatal, not a failure. */
	for (i = 0; i < nr; i++) {
		open_target(&targets[i], repo, branches[i], &o);
		if (o.since)
			resolve_since(&targets[i], repo, o.since);
	}
	for (i = 0; i < nr; i++) {
		verify_target(&targets[i], repo, &o);
		failed += targets[i].result.failures_nr != 0;
	}
	if (o.json)
		print_json(targets, nr, &o, !failed);
	for (i = 0; i < nr; i++)
		free_target(&targets[i]);
	free(targets);
	rolling_config_free_branches(branches, nr);
	git_repository_free(repo);
	return failed ? 1 : 0;
}

ROLLING_MAIN(cmd_verify)
