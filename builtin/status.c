/*
 * git rolling status: where each rolling branch stands, what `advance`
 * would do now, and what the next series switch waits for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include "../cli/usage.h"
#include "../cli/main.h"
#include "../cli/json-writer.h"
#include "../cli/push-log-json.h"
#include "../lib/push-log-config.h"
#include "../cli/text.h"
#include "../cli/wrapper.h"
#include "../lib/branch.h"
#include "../lib/branch-plan.h"
#include "../lib/fetch-plan.h"
#include "../lib/remote-config.h"
#include "../lib/ident.h"
#include "../lib/merge.h"
#include "../lib/repo.h"
#include "../cli/step-format.h"

static const char *const status_usage[] = {
	"git rolling status [--porcelain | --json] [<branch>...]",
	NULL,
};

/* What status learns about one branch; reads as much as advance --dry-run. */
struct branch_status {
	git_repository *repo;
	const char *name;
	struct rolling_branch b;
	int has_ident;
	struct rolling_ident ident;
	struct rolling_branch_plan plan;
	git_time_t tip_time;
	int tip_offset;
	char *problem;          /* why the branch cannot be advanced, or NULL */
	int has_next_switch;
	struct rolling_next_switch next_switch;
};

static void set_problem(struct branch_status *s)
{
	if (!s->problem)
		s->problem = xstrdup(rolling_last_error());
}

static void read_tip_time(struct branch_status *s, git_repository *repo)
{
	git_commit *commit;
	int err;

	if ((err = git_commit_lookup(&commit, repo, &s->plan.tip)) < 0) {
		rolling_git_error(err, "cannot read %s", s->name);
		die_last_error();
	}
	s->tip_time = git_commit_time(commit);
	s->tip_offset = git_commit_time_offset(commit);
	git_commit_free(commit);
}

/* The plan advance --dry-run makes, with its merge ids when there is an identity. */
static void examine(struct branch_status *s, git_repository *repo, const char *name)
{
	int next;

	memset(s, 0, sizeof(*s));
	s->repo = repo;
	s->name = name;
	if (rolling_branch_load(&s->b, repo, name) < 0)
		die_last_error();
	s->has_ident = !rolling_branch_ident(&s->ident, repo, &s->b);
	if (rolling_branch_plan_read(&s->plan, repo, &s->b) < 0) {
		set_problem(s);
		return;
	}
	read_tip_time(s, repo);
	if (rolling_branch_plan_steps(&s->plan, repo, &s->b, &s->b.tags, NULL,
				      s->has_ident ? &s->ident : NULL, 0) < 0)
		set_problem(s);
	else if ((next = rolling_branch_plan_next_switch(&s->next_switch, &s->plan, &s->b)) < 0)
		die_last_error();
	else
		s->has_next_switch = next;
}

/* --- what is pending --------------------------------------------------- */

/* What a stable switch waits for when no tag names the next series yet. */
static void unnamed_switch(struct strbuf *out, const struct branch_status *s)
{
	strbuf_addf(out, "%s series becomes the stable series when ",
		    s->next_switch.successive ? "the next" : "a later");
	switch (s->next_switch.rule) {
	case ROLLING_SWITCH_FIRST_RELEASE:
		strbuf_addstr(out, "its first release is tagged");
		break;
	case ROLLING_SWITCH_FIRST_POINT:
		strbuf_addstr(out, "its first point release is tagged");
		break;
	case ROLLING_SWITCH_NEXT_RC1:
		strbuf_addstr(out, "it has a point release and mainline tags a pre-release of"
			      " the series after it");
		break;
	}
}

/* next-rc1 and lts: "when it has a point release and v6.9-rc1 is tagged". */
static void waits_for_two(struct strbuf *out, const struct rolling_next_switch *ns)
{
	int stable = ns->kind == ROLLING_POLICY_STABLE;
	char after[ROLLING_SERIES_BUFSZ];

	if (ns->wants_release)
		strbuf_addf(out, "it has a %srelease", stable ? "point " : "");
	if (!ns->wants_after)
		return;
	if (ns->wants_release)
		strbuf_addstr(out, " and ");
	if (ns->has_after)
		rolling_series_format(after, &ns->after);
	if (!stable)
		strbuf_addf(out, ns->has_after ? "v%s is released" : "the series after it is released",
			    after);
	else if (ns->after_tag)
		strbuf_addf(out, "%s is tagged", ns->after_tag);
	else if (ns->has_after)
		strbuf_addf(out, "mainline tags a pre-release of %s", after);
	else
		strbuf_addstr(out, "mainline tags a pre-release of the series after it");
}

/*
 * What the next switch waits for, in the project's own tag names ("2.56
 * becomes the stable series when v2.56.0 is tagged", "6.8 ... when it
 * has a point release and v6.9-rc1 is tagged"), or in words where no
 * tag names the series or shows how its tags are spelled.
 */
static void next_switch(struct strbuf *out, const struct branch_status *s)
{
	const struct rolling_next_switch *ns = &s->next_switch;
	char name[ROLLING_SERIES_BUFSZ];

	if (!ns->has_next) {
		unnamed_switch(out, s);
		return;
	}
	strbuf_addf(out, "%s becomes the %s series when ", rolling_series_format(name, &ns->next),
		    ns->kind == ROLLING_POLICY_STABLE ? "stable" : "lts");
	if (ns->kind == ROLLING_POLICY_STABLE && ns->rule != ROLLING_SWITCH_NEXT_RC1) {
		if (ns->release_tag)
			strbuf_addf(out, "%s is tagged", ns->release_tag);
		else
			strbuf_addf(out, "its first %srelease is tagged",
				    ns->release_patch ? "point " : "");
		return;
	}
	waits_for_two(out, ns);
}

/*
 * The names of the hazards in `hazards`: " replace grafts" on the
 * current line, or for the porcelain format one "hazard <branch> <name>"
 * line each.
 */
static void print_hazards(unsigned hazards, const char *porcelain_branch)
{
	const char *name;

	while ((name = rolling_repo_hazard_next(&hazards))) {
		if (porcelain_branch)
			printf("hazard %s %s\n", porcelain_branch, name);
		else
			printf(" %s", name);
	}
}

/* --- the human format -------------------------------------------------- */

static void print_pending(const struct branch_status *s)
{
	const struct rolling_release **releases;
	char a[ROLLING_SERIES_BUFSZ], b[ROLLING_SERIES_BUFSZ], id[GIT_OID_HEXSZ + 1];
	size_t nr = rolling_branch_plan_unreached(NULL, &s->plan, &s->b.tags), i;

	if (!s->plan.steps.nr) {
		printf("  up to date: advance has nothing to do\n");
		return;
	}
	releases = xcalloc(nr + 1, sizeof(*releases));
	rolling_branch_plan_unreached(releases, &s->plan, &s->b.tags);
	printf("  pending: %zu step%s, %zu release%s not reached:", s->plan.steps.nr,
	       s->plan.steps.nr == 1 ? "" : "s", nr, nr == 1 ? "" : "s");
	for (i = 0; i < nr; i++)
		printf(" %s", qtext(releases[i]->name));
	putchar('\n');
	for (i = 0; i < s->plan.steps.nr; i++) {
		const struct rolling_release *from = i ? s->plan.steps.steps[i - 1] : s->plan.current;

		printf("  advance would merge %s", qtext(s->plan.steps.steps[i]->name));
		if (s->has_ident)
			printf(" (%s)", rolling_abbrev(id, s->repo, &s->plan.merges[i]));
		if (rolling_series_cmp(&from->version.series, &s->plan.steps.steps[i]->version.series))
			printf(", series %s -> %s", rolling_series_format(a, &from->version.series),
			       rolling_series_format(b, &s->plan.steps.steps[i]->version.series));
		putchar('\n');
	}
	free(releases);
}

static void print_human(struct branch_status *s, unsigned hazards)
{
	char series[ROLLING_SERIES_BUFSZ], other[ROLLING_SERIES_BUFSZ], day[32];
	struct strbuf key = STRBUF_INIT, text = STRBUF_INIT;

	printf("%s: policy %s", qtext(s->name), qtext(s->b.config.policy));
	if (s->plan.current)
		printf(", follows %s", rolling_series_format(series, &s->plan.current->version.series));
	putchar('\n');
	if (s->plan.current)
		printf("  tip: %s (%s)\n", qtext(s->plan.current->name),
		       rolling_format_day(day, sizeof(day), s->tip_time, s->tip_offset));
	if (s->problem)
		printf("  cannot advance: %s\n", qtext(s->problem));
	else
		print_pending(s);
	if (s->plan.target && !s->plan.qualifies)
		printf("  waiting: no series qualifies under the policy yet\n");
	if (s->b.policy.has_pin) {
		printf("  pinned to %s by %s", rolling_series_format(series, &s->b.policy.pin),
		       qtext(rolling_config_key(&key, s->name, "pin")));
		if (s->plan.unpinned && rolling_series_cmp(&s->plan.unpinned->series, &s->b.policy.pin) > 0)
			printf(", behind the policy's %s", rolling_series_format(other, &s->plan.unpinned->series));
		putchar('\n');
	}
	if (s->plan.target && rolling_series_cmp(&s->plan.target->series, &s->plan.current->version.series))
		printf("  series switch due: %s -> %s\n",
		       rolling_series_format(series, &s->plan.current->version.series),
		       rolling_series_format(other, &s->plan.target->series));
	else if (s->has_next_switch) {
		next_switch(&text, s);
		printf("  next switch: %s\n", qtext(xstrbuf(&text)));
	}
	if (!s->has_ident)
		printf("  identity missing: set user.name and user.email, or %s\n",
		       qtext(rolling_config_key(&key, s->name, "ident")));
	if (hazards) {
		printf("  hazards:");
		print_hazards(hazards, NULL);
		printf(" (git shows another history than git rolling reads)\n");
	}
	strbuf_release(&text);
	strbuf_release(&key);
}

/* --- the porcelain format ---------------------------------------------- */

/*
 * Stable for scripts: one "<key> <branch> <values...>" line each.
 *   branch <b> <policy> <series or -> <tip-release or -> <tip-id>
 *   step <b> <release> <merge-id or -> <from-series> <to-series>
 *   pending <b> <release>
 *   pin <b> <pinned-series> <policy's-series or ->
 *   problem <b> <message>
 *   ident <b> missing
 *   hazard <b> replace|grafts|shallow
 */
static void print_porcelain(const struct branch_status *s, unsigned hazards)
{
	const struct rolling_release **releases;
	char a[ROLLING_SERIES_BUFSZ], b[ROLLING_SERIES_BUFSZ], id[GIT_OID_HEXSZ + 1];
	size_t nr = rolling_branch_plan_unreached(NULL, &s->plan, &s->b.tags), i;

	printf("branch %s %s %s %s %s\n", s->name, s->b.config.policy,
	       s->plan.current ? rolling_series_format(a, &s->plan.current->version.series) : "-",
	       s->plan.current ? s->plan.current->name : "-", git_oid_tostr(id, sizeof(id), &s->plan.tip));
	for (i = 0; i < s->plan.steps.nr; i++) {
		const struct rolling_release *from = i ? s->plan.steps.steps[i - 1] : s->plan.current;

		printf("step %s %s %s %s %s\n", s->name, s->plan.steps.steps[i]->name,
		       s->has_ident ? git_oid_tostr(id, sizeof(id), &s->plan.merges[i]) : "-",
		       rolling_series_format(a, &from->version.series),
		       rolling_series_format(b, &s->plan.steps.steps[i]->version.series));
	}
	releases = xcalloc(nr + 1, sizeof(*releases));
	rolling_branch_plan_unreached(releases, &s->plan, &s->b.tags);
	for (i = 0; i < nr; i++)
		printf("pending %s %s\n", s->name, releases[i]->name);
	free(releases);
	if (s->b.policy.has_pin)
		printf("pin %s %s %s\n", s->name, rolling_series_format(a, &s->b.policy.pin),
		       s->plan.unpinned ? rolling_series_format(b, &s->plan.unpinned->series) : "-");
	if (s->problem)
		printf("problem %s %s\n", s->name, qtext(s->problem));
	if (!s->has_ident)
		printf("ident %s missing\n", s->name);
	print_hazards(hazards, s->name);
}

static void free_status(struct branch_status *s)
{
	rolling_next_switch_release(&s->next_switch);
	rolling_branch_plan_release(&s->plan);
	free(s->problem);
	if (s->has_ident)
		rolling_ident_release(&s->ident);
	rolling_branch_release(&s->b);
}

/* --- the JSON format ---------------------------------------------------- */

static json_object *json_series(const struct rolling_series *series)
{
	char name[ROLLING_SERIES_BUFSZ];

	return json_text(rolling_series_format(name, series));
}

static json_object *json_steps(const struct branch_status *s)
{
	const struct rolling_plan *steps = &s->plan.steps;
	json_object *list = json_checked(json_object_new_array());
	size_t i;

	for (i = 0; i < steps->nr; i++) {
		const struct rolling_release *from = i ? steps->steps[i - 1] : s->plan.current;
		json_object *step = json_checked(json_object_new_object());

		json_add(step, "release", json_text(steps->steps[i]->name));
		json_add(step, "merge", s->has_ident ? json_oid(&s->plan.merges[i]) : NULL);
		json_add(step, "from_series", json_series(&from->version.series));
		json_add(step, "to_series", json_series(&steps->steps[i]->version.series));
		json_append(list, step);
	}
	return list;
}

static json_object *json_unreached(const struct branch_status *s)
{
	json_object *list = json_checked(json_object_new_array());
	size_t nr = rolling_branch_plan_unreached(NULL, &s->plan, &s->b.tags), i;
	const struct rolling_release **releases = xcalloc(nr + 1, sizeof(*releases));

	rolling_branch_plan_unreached(releases, &s->plan, &s->b.tags);
	for (i = 0; i < nr; i++)
		json_append(list, json_text(releases[i]->name));
	free(releases);
	return list;
}

static json_object *json_pin(const struct branch_status *s)
{
	json_object *pin;

	if (!s->b.policy.has_pin)
		return NULL;
	pin = json_checked(json_object_new_object());
	json_add(pin, "series", json_series(&s->b.policy.pin));
	json_add(pin, "policy_series",
		 s->plan.unpinned ? json_series(&s->plan.unpinned->series) : NULL);
	return pin;
}

static json_object *json_next_switch(const struct branch_status *s)
{
	const struct rolling_next_switch *ns = &s->next_switch;
	struct strbuf text = STRBUF_INIT;
	json_object *next;

	if (!s->has_next_switch)
		return NULL;
	next = json_checked(json_object_new_object());
	json_add(next, "series", ns->has_next ? json_series(&ns->next) : NULL);
	json_add(next, "waits_for_release", json_boolean(ns->wants_release));
	json_add(next, "release_tag", json_text_or_null(ns->release_tag));
	json_add(next, "waits_for_mainline", json_boolean(ns->wants_after));
	json_add(next, "mainline_series", ns->has_after ? json_series(&ns->after) : NULL);
	json_add(next, "mainline_tag", json_text_or_null(ns->after_tag));
	next_switch(&text, s);
	json_add(next, "text", json_text(xstrbuf(&text)));
	strbuf_release(&text);
	return next;
}

/* The porcelain's facts, and what the next switch waits for. */
static json_object *json_branch(const struct branch_status *s, unsigned hazards)
{
	const struct rolling_branch_plan *p = &s->plan;
	json_object *branch = json_checked(json_object_new_object());
	int due = p->target && rolling_series_cmp(&p->target->series, &p->current->version.series);

	json_add(branch, "name", json_text(s->name));
	json_add(branch, "policy", json_text(s->b.config.policy));
	json_add(branch, "series", p->current ? json_series(&p->current->version.series) : NULL);
	json_add(branch, "release", p->current ? json_text(p->current->name) : NULL);
	json_add(branch, "tip", git_oid_is_zero(&p->tip) ? NULL : json_oid(&p->tip));
	json_add(branch, "target_series", p->target ? json_series(&p->target->series) : NULL);
	json_add(branch, "qualifies", json_boolean(p->qualifies));
	json_add(branch, "switch_due", json_boolean(due));
	json_add(branch, "steps", json_steps(s));
	json_add(branch, "unreached", json_unreached(s));
	json_add(branch, "pin", json_pin(s));
	json_add(branch, "next_switch", json_next_switch(s));
	json_add(branch, "problem", json_text_or_null(s->problem));
	json_add(branch, "ident_missing", json_boolean(!s->has_ident));
	json_add(branch, "hazards", json_hazards(hazards));
	return branch;
}

/* --- branches followed from a remote (init --follow) --------------------- */

/* The release at a verified tip, as advance reads a branch's tip; NULL when it is none. */
static const struct rolling_release *release_at(git_repository *repo,
						const struct rolling_tags *tags,
						struct rolling_patterns *patterns, const git_oid *tip)
{
	const struct rolling_release *release;

	if (rolling_tip_release(&release, repo, tip, tags, patterns) < 0) {
		free(rolling_error_take());
		return NULL;
	}
	return release;
}

static void print_followed_human(git_repository *repo, const struct rolling_fetch_plan *p,
				 const struct rolling_fetch_branch *f,
				 const struct rolling_release *release)
{
	char id[GIT_OID_HEXSZ + 1];
	const char *sigs = p->signatures ? ", release tag signatures included" : "";

	printf("%s: followed, verified by git rolling fetch %s\n", qtext(f->name),
	       qtext(p->remote));
	if (f->has_verified)
		printf("  verified tip: %s (%s)\n", release ? qtext(release->name) : "not a release",
		       rolling_abbrev(id, repo, &f->verified));
	else
		printf("  verified tip: none yet\n");
	if (!f->has_tracking)
		printf("  remote-tracking ref: none yet\n");
	else if (f->has_verified && git_oid_equal(&f->tracking, &f->verified))
		printf("  remote-tracking ref: at the verified tip\n");
	else
		printf("  remote-tracking ref: at %s, which no git rolling fetch verified\n",
		       rolling_abbrev(id, repo, &f->tracking));
	if (!f->has_verified)
		printf("  next fetch: verifies the whole branch from its base%s, then moves %s\n",
		       sigs, qtext(f->tracking_ref));
	else if (release)
		printf("  next fetch: verifies the steps after %s%s, then moves %s\n",
		       qtext(release->name), sigs, qtext(f->tracking_ref));
	else
		printf("  next fetch: verifies the steps after %s%s, then moves %s\n",
		       rolling_abbrev(id, repo, &f->verified), sigs, qtext(f->tracking_ref));
}

/*
 * "follow <remote>/<branch> <verified id> <its release> <tracking id>
 * <signatures 0|1>", "-" for what is not there.
 */
static void print_followed_porcelain(const struct rolling_fetch_plan *p,
				     const struct rolling_fetch_branch *f,
				     const struct rolling_release *release)
{
	char v[GIT_OID_HEXSZ + 1], t[GIT_OID_HEXSZ + 1];

	printf("follow %s %s %s %s %d\n", f->name,
	       f->has_verified ? git_oid_tostr(v, sizeof(v), &f->verified) : "-",
	       release ? release->name : "-",
	       f->has_tracking ? git_oid_tostr(t, sizeof(t), &f->tracking) : "-", p->signatures);
}

enum status_format {
	STATUS_HUMAN,
	STATUS_PORCELAIN,
	STATUS_JSON,
};

static json_object *json_followed(const struct rolling_fetch_plan *p,
				  const struct rolling_fetch_branch *f,
				  const struct rolling_release *release)
{
	json_object *followed = json_checked(json_object_new_object());

	json_add(followed, "name", json_text(f->name));
	json_add(followed, "verified", f->has_verified ? json_oid(&f->verified) : NULL);
	json_add(followed, "release", release ? json_text(release->name) : NULL);
	json_add(followed, "tracking", f->has_tracking ? json_oid(&f->tracking) : NULL);
	json_add(followed, "signatures", json_boolean(p->signatures));
	return followed;
}

/*
 * What the push log says about the verified tip, when rolling.<branch>.
 * pushLog is set: the checks of verify --push-log, run now (they read
 * only what the log gained since, and remember it).  0 when no log is
 * configured or nothing was verified yet.
 */
static int check_push_log(struct rolling_push_log_config *cfg, struct rolling_push_log_options *o,
			  struct rolling_push_log_result *r, git_repository *repo,
			  const char *remote, const struct rolling_fetch_branch *f)
{
	memset(r, 0, sizeof(*r));
	if (rolling_push_log_config_for_remote(cfg, repo, remote, f->branch) < 0)
		die_error_context("%s", f->name);
	if (!cfg->log || !f->has_verified)
		return 0;
	if (rolling_push_log_config_defaults(cfg, repo, "rolling.<branch>.pushLogRepo",
					     "rolling.<branch>.pushLogRef") < 0)
		die_error_context("%s", f->name);
	rolling_push_log_config_options(o, cfg);
	if (rolling_push_log_check(r, repo, &f->verified, o) < 0)
		die_error_context("%s: push log %s", f->name, o->log);
	return 1;
}

static void print_push_log_human(const struct rolling_push_log_result *r)
{
	char hex[GIT_OID_HEXSZ + 1], date[32];
	size_t i;

	if (r->published)
		printf("  push log: published by %s (%s) on %s\n", qtext(r->signer),
		       qtext(r->fingerprint),
		       rolling_push_log_date(date, sizeof(date), r->tip_entry.time));
	if (r->has_newest && r->tip_found && !r->later)
		printf("  push log: the newest push it records\n");
	else if (r->has_newest && r->later)
		printf("  push log: %zu later push%s, newest %.12s on %s: this copy is behind\n",
		       r->later, r->later == 1 ? "" : "es",
		       git_oid_tostr(hex, sizeof(hex), &r->newest.new_id),
		       rolling_push_log_date(date, sizeof(date), r->newest.time));
	for (i = 0; i < r->failures_nr; i++)
		printf("  push log: %s: %s\n", rolling_push_log_check_name(r->failures[i].check),
		       qtext(r->failures[i].message));
}

/*
 * "pushlog <remote>/<branch> <published 0|1> <date> <later pushes> <signer>",
 * "-" for what is not known.  The signer is the rest of the line, as a
 * problem's message is: a GnuPG identity holds spaces ("Name <email>").
 */
static void print_push_log_porcelain(const struct rolling_fetch_branch *f,
				     const struct rolling_push_log_result *r)
{
	char date[32];

	printf("pushlog %s %d %s %zu %s\n", f->name, r->published,
	       r->published ? rolling_push_log_date(date, sizeof(date), r->tip_entry.time) : "-",
	       r->later, r->published ? qtext(r->signer) : "-");
}

/* The branches followed from `remote`, as git rolling fetch <remote> reads them. */
static void status_followed(git_repository *repo, const char *remote,
			    enum status_format format, json_object *list)
{
	const struct rolling_scheme_options scheme = { NULL, NULL, NULL };
	struct rolling_fetch_plan p;
	struct rolling_tags tags;
	size_t i;

	if (rolling_fetch_plan_init(&p, repo, remote, NULL, 0, -1, &scheme) < 0 ||
	    rolling_tags_load(&tags, repo, &p.patterns) < 0)
		die_error_context("%s", remote);
	for (i = 0; i < p.nr; i++) {
		const struct rolling_fetch_branch *f = &p.branches[i];
		const struct rolling_release *release =
			f->has_verified ? release_at(repo, &tags, &p.patterns, &f->verified) : NULL;

		struct rolling_push_log_config cfg;
		struct rolling_push_log_options o;
		struct rolling_push_log_result r;
		int has_log = check_push_log(&cfg, &o, &r, repo, remote, f);

		if (format == STATUS_JSON) {
			json_object *object = json_followed(&p, f, release);

			json_add(object, "push_log", has_log ? json_push_log(&o, &r) : NULL);
			json_append(list, object);
		} else if (format == STATUS_PORCELAIN) {
			print_followed_porcelain(&p, f, release);
			if (has_log)
				print_push_log_porcelain(f, &r);
		} else {
			print_followed_human(repo, &p, f, release);
			if (has_log)
				print_push_log_human(&r);
		}
		rolling_push_log_result_release(&r);
		rolling_push_log_config_release(&cfg);
	}
	rolling_tags_release(&tags);
	rolling_fetch_plan_release(&p);
}

static int cmd_status(int argc, const char **argv)
{
	int porcelain = 0, json = 0;
	const struct rolling_option options[] = {
		OPT_SWITCH(0, "porcelain", &porcelain, "print in a stable format for scripts"),
		OPT_SWITCH(0, "json", &json, "print a JSON document for scripts"),
		OPT_END(),
	};
	git_repository *repo;
	char **branches = NULL, **remotes;
	json_object *root = NULL, *followed = NULL, *list = NULL;
	enum status_format format;
	unsigned hazards;
	size_t nr, remotes_nr, i;
	int err;

	argc = parse_options_or_usage(argc, argv, "status", options, status_usage);
	if (porcelain && json)
		die("options '--porcelain' and '--json' cannot be used together");
	format = json ? STATUS_JSON : porcelain ? STATUS_PORCELAIN : STATUS_HUMAN;
	if (rolling_repo_open(&repo) < 0 || rolling_repo_hazards(&hazards, repo) < 0 ||
	    rolling_remote_followed(&remotes, &remotes_nr, repo) < 0)
		die_last_error();
	err = rolling_config_branches_or_named(&branches, &nr, repo, argv, (size_t)argc);
	if (err == ROLLING_ENOTFOUND && !argc && remotes_nr)
		nr = 0;
	else if (err < 0)
		die("%s; see git rolling init", rolling_last_error());
	if (format == STATUS_JSON) {
		root = json_checked(json_object_new_object());
		followed = json_checked(json_object_new_array());
		list = json_checked(json_object_new_array());
		json_add(root, "version", json_size(1));
		json_add(root, "followed", followed);
		json_add(root, "branches", list);
	}
	for (i = 0; !argc && i < remotes_nr; i++)
		status_followed(repo, remotes[i], format, followed);
	for (i = 0; i < nr; i++) {
		struct branch_status s;

		examine(&s, repo, branches[i]);
		if (format == STATUS_JSON)
			json_append(list, json_branch(&s, hazards));
		else if (format == STATUS_PORCELAIN)
			print_porcelain(&s, hazards);
		else
			print_human(&s, hazards);
		free_status(&s);
	}
	if (root)
		json_print_document(root);
	rolling_config_free_branches(branches, nr);
	rolling_remote_followed_free(remotes, remotes_nr);
	rolling_repo_free(repo);
	return 0;
}

ROLLING_MAIN(cmd_status)
