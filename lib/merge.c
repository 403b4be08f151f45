#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abbrev.h"
#include "merge.h"
#include "policy.h"
#include "signature.h"
#include "strbuf.h"
#include "alloc.h"
#include "utf8.h"
#include "error.h"

#define SUBJECT_PREFIX "Merge "
#define SIGNOFF_TRAILER "\nSigned-off-by: "
#define MERGETAG "mergetag"
#define QUOTE_MAX 100
#define LISTED_PARENTS_MAX 4

static void add_time(struct strbuf *sb, const git_time *when, int keep_minus_zero)
{
	int offset = when->offset < 0 ? -when->offset : when->offset;
	char sign = when->offset < 0 || (keep_minus_zero && !when->offset && when->sign == '-') ?
		    '-' : '+';

	strbuf_addf(sb, "%lld %c%02d%02d", (long long)when->time, sign, offset / 60, offset % 60);
}

void rolling_merge_add_time(struct strbuf *sb, const git_time *when)
{
	add_time(sb, when, 1);
}

void rolling_merge_add_written_time(struct strbuf *sb, const git_time *when)
{
	add_time(sb, when, 0);
}

void rolling_merge_add_message(struct strbuf *sb, const char *tag_name,
			       const struct rolling_ident *ident, int signoff)
{
	strbuf_addf(sb, SUBJECT_PREFIX "%s\n", tag_name);
	if (signoff)
		strbuf_addf(sb, SIGNOFF_TRAILER "%s <%s>\n", ident->name, ident->email);
}

/* --- writing -------------------------------------------------------------- */

/*
 * The tag object a merge of `release` embeds in its `mergetag` header,
 * as git does (commit.c, handle_signed_tag()): the object the tag ref
 * names (MERGE_HEAD records it), when it is a tag object carrying a
 * signature.  git does not check the signature there, and neither does
 * this: a tag nobody can verify is embedded all the same.  An unsigned
 * annotated tag, a lightweight tag or a tag of a tag whose outer tag is
 * unsigned embeds nothing.  Sets *tag (freed with git_odb_object_free())
 * or NULL; returns 0 or a negative error.
 */
static int signed_tag_object(git_odb_object **tag, git_repository *repo,
			     const struct rolling_release *release)
{
	git_odb *odb;
	int err;

	*tag = NULL;
	if (git_oid_equal(&release->tag, &release->commit))
		return 0;    /* a lightweight tag: MERGE_HEAD holds the commit */
	if ((err = git_repository_odb(&odb, repo)) < 0)
		return rolling_git_error(err, "cannot open the object database");
	err = git_odb_read(tag, odb, &release->tag);
	git_odb_free(odb);
	if (err < 0)
		return rolling_git_error(err, "cannot read tag %s", release->name);
	if (git_odb_object_type(*tag) != GIT_OBJECT_TAG ||
	    !rolling_buffer_has_signature(git_odb_object_data(*tag), git_odb_object_size(*tag))) {
		git_odb_object_free(*tag);
		*tag = NULL;
	}
	return 0;
}

/*
 * "mergetag <line>\n <line>\n ...": git's add_extra_header() prefixes
 * every line of the tag, empty ones too, with a space, and ends the
 * last one with a newline.
 */
static void add_mergetag(struct strbuf *sb, const char *tag, size_t size)
{
	const char *end = tag + size;

	strbuf_addstr(sb, MERGETAG);
	while (tag < end) {
		const char *nl = memchr(tag, '\n', (size_t)(end - tag));
		const char *next = nl ? nl + 1 : end;

		strbuf_addch(sb, ' ');
		strbuf_add(sb, tag, (size_t)(next - tag));
		tag = next;
	}
	if (size && end[-1] != '\n')
		strbuf_addch(sb, '\n');
}

/* "author Name <email> 1700000000 +0100\n", as git writes identities in commits. */
static void add_ident(struct strbuf *sb, const char *role, const struct rolling_ident *ident,
		      const git_time *when)
{
	strbuf_addf(sb, "%s %s <%s> ", role, ident->name, ident->email);
	rolling_merge_add_written_time(sb, when);
	strbuf_addch(sb, '\n');
}

/* The commit's bytes: tree, parents, author, committer, mergetag, message. */
static void add_merge(struct strbuf *sb, git_commit *release_commit, const git_oid *tip,
		      const struct rolling_release *release, const struct rolling_ident *ident,
		      int signoff, const char *tag_data, size_t tag_size)
{
	char hex[GIT_OID_HEXSZ + 1];

	strbuf_addf(sb, "tree %s\n",
		    git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(release_commit)));
	strbuf_addf(sb, "parent %s\n", git_oid_tostr(hex, sizeof(hex), tip));
	strbuf_addf(sb, "parent %s\n", git_oid_tostr(hex, sizeof(hex), &release->commit));
	add_ident(sb, "author", ident, &git_commit_author(release_commit)->when);
	add_ident(sb, "committer", ident, &git_commit_committer(release_commit)->when);
	if (tag_data)
		add_mergetag(sb, tag_data, tag_size);
	strbuf_addch(sb, '\n');
	rolling_merge_add_message(sb, release->name, ident, signoff);
}

int rolling_merge_bytes(char **raw, size_t *len, git_repository *repo, const git_oid *tip,
			const struct rolling_release *release,
			const struct rolling_ident *ident, int signoff,
			const struct rolling_tag_bytes *embedded)
{
	struct strbuf sb = STRBUF_INIT;
	git_commit *release_commit = NULL;
	git_odb_object *tag = NULL;
	int err;

	*raw = NULL;
	if ((err = git_commit_lookup(&release_commit, repo, &release->commit)) < 0)
		return rolling_git_error(err, "cannot read %s", release->name);
	/*
	 * Written by hand rather than through git_commit_create() so that a
	 * dry run can chain merges that were never stored: the bytes are
	 * exactly those git's commit_tree_extended() writes (no encoding,
	 * no signature).
	 */
	if (embedded)
		add_merge(&sb, release_commit, tip, release, ident, signoff, embedded->data,
			  embedded->size);
	else if (!(err = signed_tag_object(&tag, repo, release)))
		add_merge(&sb, release_commit, tip, release, ident, signoff,
			  tag ? git_odb_object_data(tag) : NULL, tag ? git_odb_object_size(tag) : 0);
	if (!err && strbuf_oom(&sb))
		err = rolling_error_nomem();
	if (!err) {
		*len = sb.len;
		*raw = strbuf_detach(&sb);
	}
	strbuf_release(&sb);
	git_odb_object_free(tag);
	git_commit_free(release_commit);
	return err;
}

/*
 * Write the commit, or with `dry_run` only compute the id it would have:
 * the id depends on nothing but the bytes, so a dry run can show it.
 */
static int store(git_oid *merge, git_repository *repo, const char *data, size_t size,
		 int dry_run)
{
	git_odb *odb;
	int err;

	if (dry_run)
		return git_odb_hash(merge, data, size, GIT_OBJECT_COMMIT);
	if ((err = git_repository_odb(&odb, repo)) < 0)
		return err;
	err = git_odb_write(merge, odb, data, size, GIT_OBJECT_COMMIT);
	git_odb_free(odb);
	return err;
}

static int create(git_oid *merge, git_repository *repo, const git_oid *tip,
		  const struct rolling_release *release, const struct rolling_ident *ident,
		  int signoff, int dry_run)
{
	char *raw;
	size_t len;
	int err;

	if ((err = rolling_merge_bytes(&raw, &len, repo, tip, release, ident, signoff, NULL)) < 0)
		return err;
	if ((err = store(merge, repo, raw, len, dry_run)) < 0)
		err = rolling_git_error(err, "cannot write the merge of %s", release->name);
	free(raw);
	return err;
}

int rolling_merge_create_plan(git_oid *tip, git_oid *merges, git_repository *repo,
			      const struct rolling_plan *plan,
			      const struct rolling_ident *ident, int signoff, int dry_run)
{
	size_t i;
	int err;

	for (i = 0; i < plan->nr; i++) {
		if ((err = create(tip, repo, tip, plan->steps[i], ident, signoff, dry_run)) < 0)
			return err;
		if (merges)
			merges[i] = *tip;
	}
	return 0;
}

/* --- recognising ---------------------------------------------------------- */

/*
 * A new reason, or NULL when memory ran out: then the exam fails, for a
 * reason lost must not leave a commit that is no rolling merge with none.
 */
static struct rolling_merge_finding *add_finding(struct rolling_merge_exam *exam,
						 enum rolling_merge_fault fault)
{
	struct rolling_merge_finding *f;

	if (ALLOC_GROW(exam->findings, exam->findings_nr + 1, exam->findings_alloc) < 0) {
		exam->findings_oom = 1;
		return NULL;
	}
	f = &exam->findings[exam->findings_nr++];
	memset(f, 0, sizeof(*f));
	f->fault = fault;
	return f;
}

static void note(struct rolling_merge_exam *exam, enum rolling_merge_fault fault,
		 const char *expected, const char *found_fmt, ...) ROLLING_PRINTF(4, 5);

/* Record a reason; out of memory, the reason stays without its texts. */
static void note(struct rolling_merge_exam *exam, enum rolling_merge_fault fault,
		 const char *expected, const char *found_fmt, ...)
{
	struct rolling_merge_finding *f = add_finding(exam, fault);
	va_list ap;

	if (!f)
		return;
	f->expected = strdup(expected);
	va_start(ap, found_fmt);
	f->found = rolling_vstrfmt(found_fmt, ap);
	va_end(ap);
}

/* note() with texts built in strbufs, which it takes (they are left empty). */
static void note_sb(struct rolling_merge_exam *exam, enum rolling_merge_fault fault,
		    struct strbuf *expected, struct strbuf *found)
{
	struct rolling_merge_finding *f = add_finding(exam, fault);

	if (f) {
		f->expected = strbuf_detach(expected);
		f->found = strbuf_detach(found);
	}
	strbuf_release(expected);
	strbuf_release(found);
}

/* Add "1234...abcd (v6.6.4)" or "1234...abcd (not a release commit)". */
static void add_described(struct strbuf *sb, const struct rolling_tags *tags,
			  const git_oid *commit)
{
	const struct rolling_release *release = rolling_tags_find_commit(tags, commit);
	char h[GIT_OID_HEXSZ + 1];

	strbuf_addf(sb, "%s (%s)", git_oid_tostr(h, sizeof(h), commit),
		    release ? release->name : "not a release commit");
}

static void check_parents(struct rolling_merge_exam *exam, git_commit *commit)
{
	unsigned n = git_commit_parentcount(commit), i;
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1];

	if (n == 2)
		return;
	strbuf_addstr(&expected, "2 parents: the previous tip and a release commit");
	strbuf_addf(&found, "%u parent%s", n, n == 1 ? "" : "s");
	for (i = 0; i < n && i < LISTED_PARENTS_MAX; i++)
		strbuf_addf(&found, "%s%s", i ? ", " : ": ",
			    git_oid_tostr(h, sizeof(h), git_commit_parent_id(commit, i)));
	if (n > LISTED_PARENTS_MAX)
		strbuf_addstr(&found, ", ...");
	note_sb(exam, ROLLING_MERGE_PARENTS, &expected, &found);
}

const char *rolling_merge_subject_name(const char *summary)
{
	if (!summary || strncmp(summary, SUBJECT_PREFIX, strlen(SUBJECT_PREFIX)) ||
	    !summary[strlen(SUBJECT_PREFIX)])
		return NULL;
	return summary + strlen(SUBJECT_PREFIX);
}

/* The release tag name of a subject "Merge <tag>", or NULL (noted). */
static const char *subject_name(struct rolling_merge_exam *exam, git_commit *commit,
				struct rolling_patterns *patterns, struct rolling_version *version)
{
	const char *summary = git_commit_summary(commit);
	const char *name = rolling_merge_subject_name(summary);
	enum rolling_tag_kind kind;

	if (!name) {
		summary = summary ? summary : "";
		/* Quoted up to QUOTE_MAX bytes, never half a character. */
		note(exam, ROLLING_MERGE_SUBJECT, "\"Merge <release tag>\"", "\"%.*s\"",
		     (int)rolling_utf8_cut(summary, strlen(summary), QUOTE_MAX), summary);
		return NULL;
	}
	if (rolling_patterns_classify(patterns, name, &kind, version) < 0 ||
	    kind != ROLLING_TAG_RELEASE) {
		note(exam, ROLLING_MERGE_SUBJECT, "\"Merge <release tag>\"",
		     "\"%.*s\": not a release tag name",
		     (int)rolling_utf8_cut(summary, strlen(summary), QUOTE_MAX), summary);
		return NULL;
	}
	return name;
}

/* The release tag the subject names leads to the second parent. */
static void check_tag(struct rolling_merge_exam *exam, git_commit *commit, const char *name,
		      const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	const struct rolling_release *release = rolling_tags_find_name(tags, patterns, name);
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;

	if (!release) {
		strbuf_addf(&expected, "release tag %s", name);
		strbuf_addstr(&found, "no such tag leading to a commit");
		note_sb(exam, ROLLING_MERGE_TAG, &expected, &found);
		return;
	}
	if (git_commit_parentcount(commit) >= 2 &&
	    !git_oid_equal(&release->commit, git_commit_parent_id(commit, 1))) {
		strbuf_addstr(&expected, "second parent ");
		add_described(&expected, tags, &release->commit);
		strbuf_addstr(&found, "second parent ");
		add_described(&found, tags, git_commit_parent_id(commit, 1));
		note_sb(exam, ROLLING_MERGE_TAG, &expected, &found);
		return;
	}
	exam->release = release;
}

/* A rolling merge adds no content: its tree is its second parent's. */
static int check_tree(struct rolling_merge_exam *exam, git_commit *commit,
		      const struct rolling_tags *tags)
{
	const git_oid *merged_id = git_commit_parent_id(commit, 1);
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1];
	git_commit *merged;
	int err = git_commit_lookup(&merged, git_commit_owner(commit), merged_id);

	if (err == GIT_ENOTFOUND || err == GIT_EINVALIDSPEC) {
		git_oid_cpy(&exam->unreadable, merged_id);
		note(exam, ROLLING_MERGE_UNREADABLE, "a commit", "second parent %s",
		     git_oid_tostr(h, sizeof(h), merged_id));
		return 0;
	}
	if (err < 0)
		return rolling_git_error(err, "cannot read commit %s",
					 git_oid_tostr(h, sizeof(h), merged_id));
	if (!git_oid_equal(git_commit_tree_id(commit), git_commit_tree_id(merged))) {
		strbuf_addf(&expected, "tree %s of ",
			    git_oid_tostr(h, sizeof(h), git_commit_tree_id(merged)));
		add_described(&expected, tags, merged_id);
		strbuf_addf(&found, "tree %s", git_oid_tostr(h, sizeof(h), git_commit_tree_id(commit)));
		note_sb(exam, ROLLING_MERGE_TREE, &expected, &found);
	}
	git_commit_free(merged);
	return 0;
}

/*
 * The value of the multi-line header whose key (`key_len` bytes) starts
 * `line`, each line unindented and ended with a newline; *next is set
 * to the line after it.
 */
static int header_value(char **value, size_t *len, const char *line, size_t key_len,
			const char **next)
{
	const char *p = line + key_len + (line[key_len] == ' ');
	size_t n = 0;
	char *out = malloc(strlen(p) + 2);

	if (!out)
		return rolling_error_nomem();
	for (;;) {
		const char *end = strchrnul(p, '\n');

		memcpy(out + n, p, (size_t)(end - p));
		n += (size_t)(end - p);
		out[n++] = '\n';
		p = *end ? end + 1 : end;
		if (*p != ' ')
			break;
		p++;
	}
	out[n] = '\0';
	*value = out;
	*len = n;
	*next = p;
	return 0;
}

int rolling_merge_has_signoff(const char *message)
{
	return strstr(message, SIGNOFF_TRAILER) != NULL;
}

int rolling_merge_is_recipe_header(const char *key, size_t len)
{
	static const char *const known[] = { "tree", "parent", "author", "committer", MERGETAG };
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (len == strlen(known[i]) && !memcmp(key, known[i], len))
			return 1;
	return 0;
}

int rolling_merge_claimed(git_commit *commit)
{
	const char *summary = git_commit_summary(commit);

	return git_commit_parentcount(commit) >= 2 ||
	       (summary && !strncmp(summary, SUBJECT_PREFIX, strlen(SUBJECT_PREFIX)));
}

static int is_key(const char *line, size_t len, const char *key)
{
	return len == strlen(key) && !memcmp(line, key, len);
}

/*
 * Collect the first mergetag and note what the recipe never writes: a
 * second mergetag, or any header but the recipe's own and gpgsig (a
 * commit signature, which `git commit -S` adds and verify --signatures
 * is about).
 */
static int scan_headers(struct rolling_merge_exam *exam, git_commit *commit)
{
	const char *line = git_commit_raw_header(commit);
	size_t mergetags = 0;
	int err;

	while (line && *line) {
		size_t key_len = strcspn(line, " \n");
		const char *end = strchrnul(line, '\n');

		if (is_key(line, key_len, MERGETAG) && !mergetags++) {
			if ((err = header_value(&exam->mergetag, &exam->mergetag_len, line,
						key_len, &line)) < 0)
				return err;
			continue;
		}
		if (is_key(line, key_len, "gpgsig"))
			exam->has_gpgsig = 1;
		else if (is_key(line, key_len, MERGETAG))
			note(exam, ROLLING_MERGE_MERGETAG, "at most one mergetag header",
			     "another mergetag header");
		else if (*line != ' ' && !rolling_merge_is_recipe_header(line, key_len))
			note(exam, ROLLING_MERGE_HEADER, "only the headers the recipe writes",
			     "extra header '%.*s'", (int)(key_len > QUOTE_MAX ? QUOTE_MAX : key_len),
			     line);
		line = *end ? end + 1 : end;
	}
	return 0;
}

/* What an embedded tag says in its first header lines. */
struct tag_head {
	git_oid object;
	char type[16];
	const char *name;       /* points into the tag; name_len long */
	size_t name_len;
};

static int parse_tag_head(struct tag_head *head, const char *tag)
{
	const char *type, *name, *end;
	size_t type_len;

	if (strncmp(tag, "object ", 7) || git_oid_fromstrn(&head->object, tag + 7, GIT_OID_HEXSZ) ||
	    tag[7 + GIT_OID_HEXSZ] != '\n')
		return -1;
	type = tag + 8 + GIT_OID_HEXSZ;
	if (strncmp(type, "type ", 5) || !(end = strchr(type, '\n')))
		return -1;
	type_len = (size_t)(end - type - 5);
	if (type_len >= sizeof(head->type))
		return -1;
	memcpy(head->type, type + 5, type_len);
	head->type[type_len] = '\0';
	name = end + 1;
	if (strncmp(name, "tag ", 4) || !(end = strchr(name, '\n')))
		return -1;
	head->name = name + 4;
	head->name_len = (size_t)(end - head->name);
	return 0;
}

static int embed_release(struct rolling_merge_exam *exam, git_commit *commit, const char *name,
			 const struct rolling_version *version)
{
	struct rolling_release *r = calloc(1, sizeof(*r));

	if (!r || !(r->name = strdup(name))) {
		free(r);
		return rolling_error_nomem();
	}
	r->version = *version;
	git_oid_cpy(&r->commit, git_commit_parent_id(commit, 1));
	git_oid_cpy(&r->tag, &exam->mergetag_id);
	r->is_commit = 1;
	exam->embedded_release = r;
	return 0;
}

/*
 * The embedded tag is a tag of the release the subject names, and leads
 * to the second parent: directly, or (a tag of a tag, as git embeds the
 * outer tag) because it is the very tag object the release's ref names,
 * which the tags were peeled through.
 */
static int check_mergetag(struct rolling_merge_exam *exam, git_commit *commit, const char *name,
			  const struct rolling_version *version, const struct rolling_release *named)
{
	const struct rolling_release *release = exam->release;
	struct strbuf expected = STRBUF_INIT, found = STRBUF_INIT;
	char h[GIT_OID_HEXSZ + 1];
	struct tag_head head;
	int is_ref_tag, direct;

	if (git_odb_hash(&exam->mergetag_id, exam->mergetag, exam->mergetag_len,
			 GIT_OBJECT_TAG) < 0 || parse_tag_head(&head, exam->mergetag) < 0) {
		note(exam, ROLLING_MERGE_MERGETAG, "a tag object", "a mergetag that is not one");
		return 0;
	}
	is_ref_tag = release && git_oid_equal(&exam->mergetag_id, &release->tag);
	direct = git_oid_equal(&head.object, git_commit_parent_id(commit, 1)) &&
		 !strcmp(head.type, "commit");
	if (head.name_len != strlen(name) || memcmp(head.name, name, head.name_len)) {
		/* The embedded name is whatever the tag's bytes say: quoted. */
		strbuf_addf(&expected, "a tag named %s", name);
		strbuf_addstr(&found, "embedded tag ");
		strbuf_add(&found, head.name, rolling_utf8_cut(head.name, head.name_len, QUOTE_MAX));
		note_sb(exam, ROLLING_MERGE_MERGETAG, &expected, &found);
	} else if (!is_ref_tag && !direct) {
		strbuf_addf(&expected, "a tag of commit %s (the second parent)",
			    git_oid_tostr(h, sizeof(h), git_commit_parent_id(commit, 1)));
		strbuf_addf(&found, "a tag of %s %s", head.type,
			    git_oid_tostr(h, sizeof(h), &head.object));
		note_sb(exam, ROLLING_MERGE_MERGETAG, &expected, &found);
	} else if (release && !is_ref_tag) {
		strbuf_addf(&expected, "tag object %s (refs/tags/%s)",
			    git_oid_tostr(h, sizeof(h), &release->tag), name);
		strbuf_addf(&found, "another tag object %s",
			    git_oid_tostr(h, sizeof(h), &exam->mergetag_id));
		note_sb(exam, ROLLING_MERGE_MERGETAG, &expected, &found);
	} else if (!named) {
		return embed_release(exam, commit, name, version);
	}
	return 0;
}

void rolling_merge_exam_release(struct rolling_merge_exam *exam)
{
	size_t i;

	for (i = 0; i < exam->findings_nr; i++) {
		free(exam->findings[i].expected);
		free(exam->findings[i].found);
	}
	if (exam->embedded_release)
		free(exam->embedded_release->name);
	free(exam->embedded_release);
	free(exam->mergetag);
	free(exam->findings);
	memset(exam, 0, sizeof(*exam));
}

static int examine(struct rolling_merge_exam *exam, git_commit *commit,
		   const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	struct rolling_version version;
	const char *name;
	int err;

	check_parents(exam, commit);
	if ((name = subject_name(exam, commit, patterns, &version)))
		check_tag(exam, commit, name, tags, patterns);
	if (git_commit_parentcount(commit) < 2)
		return 0;
	if ((err = check_tree(exam, commit, tags)) < 0 || (err = scan_headers(exam, commit)) < 0)
		return err;
	if (exam->mergetag && name)
		return check_mergetag(exam, commit, name, &version,
				      rolling_tags_find_name(tags, patterns, name));
	return 0;
}

int rolling_merge_examine(struct rolling_merge_exam *exam, git_commit *commit,
			  const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	int err;

	memset(exam, 0, sizeof(*exam));
	err = examine(exam, commit, tags, patterns);
	if (!err && exam->findings_oom)
		err = rolling_error_nomem();
	return err;
}

int rolling_merge_identify(const struct rolling_release **release, git_commit *commit,
			   const struct rolling_tags *tags, struct rolling_patterns *patterns)
{
	struct rolling_merge_exam exam;
	int err = rolling_merge_examine(&exam, commit, tags, patterns);

	*release = !err && !exam.findings_nr ? exam.release : NULL;
	rolling_merge_exam_release(&exam);
	return err < 0 ? err : *release != NULL;
}

int rolling_tip_release(const struct rolling_release **release, git_repository *repo,
			const git_oid *tip, const struct rolling_tags *tags,
			struct rolling_patterns *patterns)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit;
	int err;

	if ((*release = rolling_tags_find_commit(tags, tip)))
		return 0;
	if ((err = git_commit_lookup(&commit, repo, tip)) < 0)
		return rolling_git_error(err, "cannot read %s", git_oid_tostr(hex, sizeof(hex), tip));
	err = rolling_merge_identify(release, commit, tags, patterns);
	git_commit_free(commit);
	if (err < 0)
		return err;
	if (!err)
		return rolling_error("%s is neither a rolling merge nor a release commit;"
				     " refusing to build on it",
				     rolling_abbrev(hex, repo, tip));
	return 0;
}
