/*
 * git rolling verify: prove that a rolling branch holds nothing but the
 * releases' own commits, unchanged, joined by content-free merges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/text.h"
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/wrapper.h"
#include "../lib/branch.h"
#include "../lib/repo.h"
#include "../cli/progress.h"
#include "../lib/verify.h"
#include "../cli/verify-report.h"
#include "../cli/color.h"
#include "../cli/json-writer.h"
#include "../lib/revision.h"
#include "../lib/push-log-config.h"
#include "../cli/push-log-report.h"
#include "../cli/push-log-json.h"

static const char *const verify_usage[] = {
	"git rolling verify [--preset <name> | --release-pattern <regex> --mainline-pattern <regex>]\n"
	"                          [--since <rev>] [--rebuild] [--signatures] [--[no-]progress]\n"
	"                          [--push-log=<log> [--push-log-repo=<name>] [--push-log-ref=<ref>]\n"
	"                           [--require-latest]]\n"
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
	const char *push_log, *push_log_repo, *push_log_ref;
	int require_latest;     /* -1: as configured */
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
	/* With a push log (option or rolling.<branch>.pushLog). */
	int has_push_log;
	struct rolling_push_log_config push_log;
	struct rolling_push_log_options push_log_options;
	struct rolling_push_log_result push_log_result;
};

/*
 * The push log to check the tip against: the options over the branch's
 * rolling.<branch>.push* keys; none when neither names a log.
 */
static void open_push_log(struct target *t, git_repository *repo, const char *name,
			  const struct verify_options *o)
{
	struct rolling_push_log_config *c = &t->push_log;

	if (rolling_push_log_config_read(c, repo, name) < 0)
		die_error_context("%s", name);
	if (o->push_log) {
		free(c->log);
		c->log = xstrdup(o->push_log);
	}
	if (!c->log) {
		if (o->push_log_repo || o->push_log_ref || o->require_latest > 0)
			die("%s: --push-log-repo, --push-log-ref and --require-latest need a push log"
			    " (--push-log or rolling.<branch>.pushLog)", qtext(name));
		return;
	}
	if (o->push_log_repo) {
		free(c->repo_name);
		c->repo_name = xstrdup(o->push_log_repo);
	}
	if (o->push_log_ref) {
		free(c->ref);
		c->ref = xstrdup(o->push_log_ref);
	}
	if (o->require_latest >= 0)
		c->require_latest = o->require_latest;
	if (rolling_push_log_config_defaults(c, repo, "--push-log-repo", "--push-log-ref") < 0)
		die_error_context("%s", name);
	rolling_push_log_config_options(&t->push_log_options, c);
	t->has_push_log = 1;
}

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
	open_push_log(t, repo, name, o);
}

static void resolve_since(struct target *t, git_repository *repo, const char *since)
{
	if (rolling_resolve_commit(&t->since, repo, since) < 0)
		die_error_context("--since");
}

/* --- the JSON document ------------------------------------------------- */

static json_object *json_release(const git_oid *commit, const struct rolling_release *release)
{
	json_object *object = json_checked(json_object_new_object());

	json_add(object, "commit", json_oid(commit));
	json_add(object, "release", json_text_or_null(release ? release->name : NULL));
	return object;
}

static json_object *json_merges(const struct rolling_verify_result *r)
{
	json_object *merges = json_checked(json_object_new_array());
	size_t i;

	for (i = 0; i < r->steps_nr; i++)
		json_append(merges, json_release(&r->steps[i].merge, r->steps[i].release));
	return merges;
}

static json_object *json_switches(const struct target *t)
{
	const struct rolling_verify_result *r = &t->result;
	json_object *switches = json_checked(json_object_new_array());
	char series[ROLLING_SERIES_BUFSZ];
	size_t i;

	for (i = 0; i < r->switches_nr; i++) {
		const struct rolling_verify_switch *s = &r->switches[i];
		json_object *object = json_checked(json_object_new_object());

		json_add(object, "commit", json_oid(&s->merge));
		json_add(object, "from", json_text(s->from->name));
		json_add(object, "to", json_text(s->to->name));
		json_add(object, "from_series",
		    json_text(rolling_series_format(series, &s->from->version.series)));
		json_add(object, "to_series",
		    json_text(rolling_series_format(series, &s->to->version.series)));
		json_append(switches, object);
	}
	return switches;
}

static json_object *json_failures(const struct rolling_verify_result *r)
{
	json_object *failures = json_checked(json_object_new_array());
	size_t i;

	for (i = 0; i < r->failures_nr; i++) {
		const struct rolling_verify_failure *f = &r->failures[i];
		json_object *object = json_checked(json_object_new_object());

		json_add(object, "commit", json_oid(&f->commit));
		json_add(object, "check",
		    json_text(rolling_verify_check_name(f->check)));
		json_add(object, "expected", json_text(f->expected));
		json_add(object, "found", json_text(f->found));
		json_append(failures, object);
	}
	return failures;
}

static json_object *json_patterns(const struct target *t)
{
	json_object *object = json_checked(json_object_new_object());

	json_add(object, "source", json_text(t->pattern_source));
	json_add(object, "preset", json_text_or_null(t->preset));
	json_add(object, "release", json_text(t->b.config.release_pattern));
	json_add(object, "mainline", json_text(t->b.config.mainline_pattern));
	return object;
}

static json_object *json_since(const struct target *t, const struct verify_options *o)
{
	json_object *object;

	if (!o->since)
		return NULL;
	object = json_release(&t->since, t->result.since_release);
	json_add(object, "found", json_boolean(t->result.since_found));
	return object;
}

static json_object *json_target(const struct target *t, const struct verify_options *o)
{
	const struct rolling_verify_result *r = &t->result;
	json_object *object = json_checked(json_object_new_object());

	json_add(object, "name", json_text(t->name));
	json_add(object, "verified",
		 json_boolean(!r->failures_nr && !t->push_log_result.failures_nr));
	json_add(object, "tip", json_oid(&r->tip));
	json_add(object, "tip_release",
		 json_text_or_null(r->tip_release ? r->tip_release->name : NULL));
	json_add(object, "base", r->has_base ? json_release(&r->base, r->base_release) : NULL);
	json_add(object, "since", json_since(t, o));
	json_add(object, "steps", json_size(r->steps_nr));
	json_add(object, "merges", json_merges(r));
	json_add(object, "series_switches", json_switches(t));
	json_add(object, "rebuild", json_boolean(o->rebuild));
	json_add(object, "signatures", json_boolean(o->signatures));
	json_add(object, "signatures_good", json_size(r->signatures_good));
	json_add(object, "hazards", json_hazards(r->hazards));
	json_add(object, "patterns", json_patterns(t));
	json_add(object, "failures", json_failures(r));
	json_add(object, "truncated", json_boolean(r->truncated));
	json_add(object, "push_log", t->has_push_log ?
		 json_push_log(&t->push_log_options, &t->push_log_result) : NULL);
	return object;
}

static void print_json(const struct target *targets, size_t nr, const struct verify_options *o,
		       int verified)
{
	json_object *root = json_checked(json_object_new_object());
	json_object *branches = json_checked(json_object_new_array());
	size_t i;

	json_add(root, "version", json_checked(json_object_new_int(JSON_FORMAT_VERSION)));
	json_add(root, "verified", json_boolean(verified));
	for (i = 0; i < nr; i++)
		json_append(branches, json_target(&targets[i], o));
	json_add(root, "branches", branches);
	json_print_document(root);
}

/* --- the command ------------------------------------------------------- */

static void verify_target(struct target *t, git_repository *repo, const struct verify_options *o)
{
	int progress = rolling_progress_wanted(o->progress, o->quiet);
	struct rolling_verify_options vo = { o->since ? &t->since : NULL, o->rebuild, o->signatures,
					     progress, NULL };

	struct rolling_verify_report report = { repo, t->name, &t->result, &t->b.tags,
						o->since ? &t->since : NULL, o->rebuild,
						o->signatures, o->color };

	if (rolling_verify(&t->result, repo, &t->tip, &t->b.tags, &t->b.patterns, &vo) < 0)
		die_error_context("%s", t->name);
	if (t->has_push_log &&
	    rolling_push_log_check(&t->push_log_result, repo, &t->tip, &t->push_log_options) < 0)
		die_error_context("%s: push log %s", t->name, t->push_log_options.log);
	if (o->json)
		return;
	rolling_verify_print_failures(&report);
	if (t->has_push_log)
		rolling_push_log_print_failures(t->name, &t->push_log_result);
	if (o->quiet)
		return;
	if (!strcmp(t->pattern_source, "default"))
		printf("%s: not a configured rolling branch: tags read with the %s preset"
		       " (choose with --preset or --release-pattern)\n", qtext(t->name), t->preset);
	rolling_verify_print_report(&report);
	if (t->has_push_log)
		rolling_push_log_print_report(t->name, &t->push_log_options, &t->push_log_result);
}

static void free_target(struct target *t)
{
	rolling_verify_result_release(&t->result);
	rolling_branch_release(&t->b);
	rolling_push_log_result_release(&t->push_log_result);
	rolling_push_log_config_release(&t->push_log);
}

static int cmd_verify(int argc, const char **argv)
{
	struct verify_options o = { .progress = -1, .require_latest = -1 };
	const struct rolling_option options[] = {
		OPT_TAG_SCHEME_READ(&o.scheme),
		OPT_STRING(0, "since", &o.since, "rev",
			   "check only the steps after this earlier tip, which must be on the chain"),
		OPT_BOOL(0, "rebuild", &o.rebuild,
			 "recompute every merge and compare the commit ids"),
		OPT_BOOL(0, "signatures", &o.signatures,
			 "verify the signatures of the release tags merged"),
		OPT_BOOL(0, "progress", &o.progress,
			 "show progress while git verifies the signatures"),
		OPT_STRING(0, "push-log", &o.push_log, "log",
			   "check the tip against this push log (a public-inbox v2 archive)"),
		OPT_STRING(0, "push-log-repo", &o.push_log_repo, "name",
			   "the repository as the push log names it"),
		OPT_STRING(0, "push-log-ref", &o.push_log_ref, "ref",
			   "the ref as the push log names it"),
		OPT_BOOL(0, "require-latest", &o.require_latest,
			 "fail when the push log records a later push"),
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
		failed += targets[i].result.failures_nr != 0 ||
			  targets[i].push_log_result.failures_nr != 0;
	}
	if (o.json)
		print_json(targets, nr, &o, !failed);
	for (i = 0; i < nr; i++)
		free_target(&targets[i]);
	free(targets);
	rolling_config_free_branches(branches, nr);
	rolling_repo_free(repo);
	return failed ? 1 : 0;
}

ROLLING_MAIN(cmd_verify)
