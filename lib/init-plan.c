#include <stdlib.h>
#include <string.h>
#include "init-plan.h"
#include "branch.h"
#include "error.h"
#include "ident.h"
#include "merge.h"
#include "pattern.h"
#include "policy.h"
#include "remote-config.h"
#include "revision.h"
#include "run-command.h"
#include "strbuf.h"

/* --- the name ------------------------------------------------------------ */

int rolling_init_check_branch_name(const char *name)
{
	const char *args[] = { "check-ref-format", "--branch", name, NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	size_t len = strlen(name);
	int status = 1;

	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	if (name[0] != '-' && (status = rolling_child_run(&git)) < 0)
		goto out;
	/* git prints the branch name it would use, then a newline. */
	if (status || strncmp(git.captured.buf, name, len) || strcmp(git.captured.buf + len, "\n"))
		status = rolling_error("'%s' is not a valid branch name", name);
out:
	rolling_child_release(&git);
	return status;
}

/*
 * A new branch whose short name is also a tag's (v6.1.13) or another
 * ref's would be refused by every later command as ambiguous
 * (revision.c): refuse it now, before anything is made.
 */
static int check_unambiguous_name(git_repository *repo, const char *branch)
{
	struct strbuf others = STRBUF_INIT;
	size_t found;
	int err = rolling_ref_other_meanings(&others, &found, repo, branch, "refs/heads/");

	if (!err && found)
		err = rolling_error("'%s' already names %s: a branch of that name would be"
				    " ambiguous, and git rolling refuses ambiguous names; choose"
				    " another name", branch, others.buf);
	strbuf_release(&others);
	return err;
}

int rolling_init_check_new(git_repository *repo, const char *branch, int force, int adopt)
{
	struct rolling_config existing;
	git_oid tip;
	int err;

	if ((err = check_unambiguous_name(repo, branch)) < 0)
		return err;
	if (force)
		return 0;
	err = adopt ? ROLLING_ENOTFOUND : rolling_branch_tip(&tip, repo, branch);
	if (!err)
		return rolling_error("a branch named '%s' already exists (use --force to replace it)",
				     branch);
	if (err != ROLLING_ENOTFOUND)
		return err;
	/* A section that cannot be read is there all the same. */
	if ((err = rolling_config_read(&existing, repo, branch)) == ROLLING_ENOTFOUND)
		return 0;
	if (!err)
		rolling_config_release(&existing);
	return rolling_error("rolling.%s.* is already configured (use --force to replace it)",
			     branch);
}

/* --- the configuration -------------------------------------------------- */

int rolling_init_needs_detection(const struct rolling_scheme_options *scheme)
{
	const char *release_re, *mainline_re;
	int err = rolling_patterns_from_options(&release_re, &mainline_re, scheme);

	return err < 0 ? err : !release_re;
}

static int copy(char **to, const char *from)
{
	*to = NULL;
	return !from || (*to = strdup(from)) ? 0 : rolling_error_nomem();
}

int rolling_init_config(struct rolling_config *cfg, const struct rolling_init_settings *s,
			const char *branch, const struct rolling_preset *detected)
{
	const struct rolling_preset *preset = detected;
	const char *release_re, *mainline_re, *series = NULL, *rule;
	enum rolling_switch_rule parsed;
	int lts = s->policy == ROLLING_POLICY_LTS, err;

	memset(cfg, 0, sizeof(*cfg));
	if ((err = rolling_patterns_from_options(&release_re, &mainline_re, &s->scheme)) < 0)
		return err;
	if (s->scheme.preset)
		preset = rolling_preset_find(s->scheme.preset);
	if (!release_re) {
		release_re = preset->release_pattern;
		mainline_re = preset->mainline_pattern;
	}
	if (s->series && !lts)
		return rolling_error("--series lists long-term series; it needs --lts");
	if (lts)
		series = s->series ? s->series : preset ? preset->lts_series : NULL;
	rule = s->switch_rule ? s->switch_rule :
	       preset ? preset->switch_rule : ROLLING_DEFAULT_SWITCH;
	if ((err = rolling_switch_rule_parse(&parsed, rule, "--switch")) < 0)
		return err;
	cfg->signoff = s->signoff;
	if ((err = copy(&cfg->branch, branch)) < 0 ||
	    (err = copy(&cfg->switch_rule, lts ? NULL : rule)) < 0 ||
	    (err = copy(&cfg->policy, lts ? "lts" : "stable")) < 0 ||
	    (err = copy(&cfg->release_pattern, release_re)) < 0 ||
	    (err = copy(&cfg->mainline_pattern, mainline_re)) < 0 ||
	    (err = copy(&cfg->series, series)) < 0 ||
	    (err = copy(&cfg->pin, s->pin)) < 0 ||
	    (err = copy(&cfg->ident, s->ident)) < 0 ||
	    (err = copy(&cfg->steps, s->each > 0 ? rolling_steps_mode_name(ROLLING_STEPS_EACH) : NULL)) < 0)
		return err;
	return 0;
}

/* --- the start ---------------------------------------------------------- */

/* --- --follow ----------------------------------------------------------- */

int rolling_init_follow_patterns(const char **release_re, const char **mainline_re,
				 const struct rolling_scheme_options *scheme)
{
	struct rolling_patterns patterns;
	int err;

	if ((err = rolling_patterns_from_options(release_re, mainline_re, scheme)) < 0 ||
	    !*release_re)
		return err;
	if ((err = rolling_patterns_compile(&patterns, *release_re, "--release-pattern",
					    *mainline_re, "--mainline-pattern")) < 0)
		return err;
	rolling_patterns_release(&patterns);
	return 0;
}

/*
 * The longest ref a followed branch gets is its verified tip's (its
 * remote-tracking ref is shorter): it must fit libgit2 1.5's limit on
 * ref names, as init's own branches must (rolling_branch_refname()), or
 * every later fetch would fail on it.
 */
static int check_followed_length(const char *remote, const char *branch)
{
	struct strbuf refname = STRBUF_INIT;
	int err = 0;

	strbuf_addf(&refname, ROLLING_VERIFIED_REF_FORMAT, remote, branch);
	if (strbuf_oom(&refname))
		err = rolling_error_nomem();
	else if (refname.len >= ROLLING_LIBGIT2_REFNAME_MAX)
		err = rolling_error("branch name too long (%zu bytes): following it makes the ref"
				    " refs/rolling/verified/%s/<branch> of %zu bytes, and libgit2"
				    " takes ref names of at most %d bytes", strlen(branch), remote,
				    refname.len, ROLLING_LIBGIT2_REFNAME_MAX - 1);
	strbuf_release(&refname);
	return err;
}

int rolling_init_split_followed(char **remote, const char **branch, git_repository *repo,
				const char *followed)
{
	struct strbuf refname = STRBUF_INIT;
	size_t best;
	int err;

	*remote = NULL;
	if ((err = rolling_remote_longest_prefix(&best, repo, followed)) < 0)
		return err;
	if (!best)
		return rolling_error("'%s' is not <remote>/<branch> of a configured remote"
				     " (see git remote add)", followed);
	*branch = followed + best + 1;
	strbuf_addf(&refname, "refs/heads/%s", *branch);
	if (strbuf_oom(&refname))
		err = rolling_error_nomem();
	else if (!git_reference_is_valid_name(refname.buf) || (*branch)[0] == '-')
		err = rolling_error("'%s' is not a valid branch name", *branch);
	else if (!(*remote = strndup(followed, best)))
		err = rolling_error_nomem();
	else
		err = check_followed_length(*remote, *branch);
	if (err < 0) {
		free(*remote);
		*remote = NULL;
	}
	strbuf_release(&refname);
	return err;
}

/* --- --adopt ------------------------------------------------------------ */

static int committer_mismatch(struct rolling_adopt_mismatch *m, const git_signature *committer,
			      const struct rolling_ident *ident)
{
	if (!strcmp(committer->name, ident->name) && !strcmp(committer->email, ident->email))
		return 0;
	if (!(m->name = strdup(committer->name)) || !(m->email = strdup(committer->email)))
		return rolling_error_nomem();
	return 0;
}

int rolling_init_adopt_mismatch(struct rolling_adopt_mismatch *m, git_repository *repo,
				const struct rolling_branch *b, const git_oid *tip)
{
	struct rolling_ident ident;
	git_commit *commit;
	int signed_off, err = 0;

	memset(m, 0, sizeof(*m));
	m->signoff = -1;
	if (git_commit_lookup(&commit, repo, tip) < 0)
		return 0;
	if (git_commit_parentcount(commit) == 2 && !rolling_branch_ident(&ident, repo, b)) {
		err = committer_mismatch(m, git_commit_committer(commit), &ident);
		signed_off = rolling_merge_has_signoff(git_commit_message(commit));
		if (signed_off != b->config.signoff)
			m->signoff = signed_off;
		rolling_ident_release(&ident);
	}
	git_commit_free(commit);
	return err;
}

void rolling_adopt_mismatch_release(struct rolling_adopt_mismatch *m)
{
	free(m->name);
	free(m->email);
	m->name = m->email = NULL;
}

/* --- an adopted branch's cadence ---------------------------------------- */

/* The index of a release among the repository's tags, or -1 for one embedded in a merge. */
static long tag_index(const struct rolling_tags *tags, const struct rolling_release *release)
{
	if (!release || release < tags->releases || release >= tags->releases + tags->releases_nr)
		return -1;
	return (long)(release - tags->releases);
}

/* One step from `from` to `to`: in a row, passing releases over, or neither (a switch). */
static void cadence_pair(struct rolling_adopt_cadence *c, const struct rolling_tags *tags,
			 const struct rolling_release *from, const struct rolling_release *to)
{
	long a = tag_index(tags, from), b = tag_index(tags, to);

	/* A series' releases are next to each other in version order. */
	if (a < 0 || b < 0 ||
	    rolling_series_cmp(&from->version.series, &to->version.series))
		return;
	if (b == a + 1)
		c->in_a_row++;
	else if (b > a + 1)
		c->skipped++;
}

void rolling_init_adopt_cadence(struct rolling_adopt_cadence *c,
				const struct rolling_verify_result *verified,
				const struct rolling_tags *tags)
{
	const struct rolling_release *before = verified->has_base ? verified->base_release : NULL;
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < verified->steps_nr; i++) {
		const struct rolling_release *release = verified->steps[i].release;

		if (before)
			cadence_pair(c, tags, before, release);
		before = release;
	}
}

int rolling_init_adopt_is_each(const struct rolling_adopt_cadence *c)
{
	return c->in_a_row >= ROLLING_ADOPT_EACH_MIN && !c->skipped;
}
