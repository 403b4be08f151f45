#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tags.h"
#include "repo-format.h"
#include "alloc.h"
#include "error.h"
#include "git2-compat.h"
#include "strbuf.h"

#define TAG_PREFIX "refs/tags/"
#define MAX_TAG_DEPTH 16

struct loader {
	struct rolling_tags *tags;
	git_repository *repo;
	git_odb *odb;
	struct rolling_patterns *patterns;
};

static const char *type_name(git_object_t type)
{
	const char *name = git_object_type2string(type);

	return name && *name ? name : "unknown object";
}

static const char *last_git_error(void)
{
	const char *message = rolling_git_error_message();

	return message ? message : "cannot read it";
}

static void warn_not_commit(const char *name, git_object_t type)
{
	rolling_warning("ignoring release tag '%s': it points to a %s, not a commit",
			name, type_name(type));
}

/*
 * Follow a tag ref to the commit it names.  Returns 0 with *commit set
 * (a packed ref's peeled value is taken on trust: rolling_release_check()
 * looks at the objects of the releases a command uses), 1 when the tag
 * leads to something other than a commit or to a missing object (the
 * caller skips it, as git's for-each-ref does), or a negative error.
 */
static int peel_to_commit(git_oid *commit, struct loader *l, const git_oid *target,
			  const git_oid *peeled, const char *name)
{
	git_oid id;
	int depth, err;

	if (peeled) {
		git_oid_cpy(commit, peeled);
		return 0;
	}
	git_oid_cpy(&id, target);
	for (depth = 0; depth < MAX_TAG_DEPTH; depth++) {
		git_object_t type;
		size_t size;
		git_tag *tag;

		if ((err = git_odb_read_header(&size, &type, l->odb, &id)) == GIT_ENOTFOUND) {
			char hex[GIT_OID_HEXSZ + 1];

			rolling_warning("ignoring release tag '%s': object %s is missing", name,
					git_oid_tostr(hex, sizeof(hex), &id));
			return 1;
		}
		if (err < 0)
			return rolling_git_error(err, "tag '%s'", name);
		if (type == GIT_OBJECT_COMMIT) {
			git_oid_cpy(commit, &id);
			return 0;
		}
		if (type != GIT_OBJECT_TAG) {
			warn_not_commit(name, type);
			return 1;
		}
		if ((err = git_tag_lookup(&tag, l->repo, &id)) < 0)
			return rolling_git_error(err, "tag '%s'", name);
		git_oid_cpy(&id, git_tag_target_id(tag));
		git_tag_free(tag);
	}
	rolling_warning("ignoring release tag '%s': tags nested too deeply", name);
	return 1;
}

static int add_release(struct loader *l, const char *name, const struct rolling_version *v,
		       const git_oid *tag, const git_oid *commit)
{
	struct rolling_tags *tags = l->tags;
	struct rolling_release *release;

	if (ALLOC_GROW(tags->releases, tags->releases_nr + 1, tags->releases_alloc) < 0)
		return ROLLING_ERROR;
	release = &tags->releases[tags->releases_nr];
	if (!(release->name = strdup(name)))
		return rolling_error_nomem();
	release->version = *v;
	git_oid_cpy(&release->commit, commit);
	git_oid_cpy(&release->tag, tag);
	release->is_commit = 0;
	release->problem = NULL;
	tags->releases_nr++;
	return 0;
}

/* Mainline has tagged this version: a pre-release, or a series' final. */
static void note_mainline_version(struct rolling_tags *tags, const struct rolling_version *v)
{
	if (!tags->has_mainline || rolling_series_cmp(&v->series, &tags->newest_mainline) > 0)
		tags->newest_mainline = v->series;
	tags->has_mainline = 1;
	if (v->prerelease)
		return;
	if (!tags->has_mainline_final ||
	    rolling_series_cmp(&v->series, &tags->newest_mainline_final) > 0)
		tags->newest_mainline_final = v->series;
	tags->has_mainline_final = 1;
}

static int cmp_mainline_series_key(const void *key, const void *element)
{
	return rolling_series_cmp(key, element);
}

static size_t lower_bound(const void *key, const void *base, size_t nr, size_t size,
			  int (*cmp)(const void *key, const void *element));

/* Keep the series a mainline tag names in the ascending set. */
static int note_mainline_series(struct rolling_tags *tags, const struct rolling_series *s)
{
	size_t at = lower_bound(s, tags->mainline_series, tags->mainline_series_nr,
				sizeof(*s), cmp_mainline_series_key);

	if (at < tags->mainline_series_nr && !rolling_series_cmp(&tags->mainline_series[at], s))
		return 0;
	if (ALLOC_GROW(tags->mainline_series, tags->mainline_series_nr + 1,
		       tags->mainline_series_alloc) < 0)
		return ROLLING_ERROR;
	memmove(&tags->mainline_series[at + 1], &tags->mainline_series[at],
		(tags->mainline_series_nr - at) * sizeof(*s));
	tags->mainline_series[at] = *s;
	tags->mainline_series_nr++;
	return 0;
}

static int note_mainline(struct rolling_tags *tags, const struct rolling_version *v)
{
	tags->mainline_nr++;
	note_mainline_version(tags, v);
	return note_mainline_series(tags, &v->series);
}

/*
 * A series' first release (patch 0: v2.44.0 where the release pattern
 * reads it) is mainline's final of that series too.
 */
static void note_release(struct rolling_tags *tags, const struct rolling_version *v)
{
	struct rolling_version final = *v;

	if (v->patch)
		return;
	final.prerelease = 0;
	note_mainline_version(tags, &final);
}

/* Keep the first pre-release of the newest series as an example (tags.h). */
static int note_pre_example(struct rolling_tags *tags, const char *name,
			    const struct rolling_version *v)
{
	const struct rolling_version *kept = &tags->first_pre_version;
	int cmp;

	if (!v->prerelease)
		return 0;
	if (tags->first_pre_example) {
		cmp = rolling_series_cmp(&v->series, &kept->series);
		if (cmp < 0 || (!cmp && (v->rc > kept->rc ||
		    (v->rc == kept->rc && strcmp(name, tags->first_pre_example) > 0))))
			return 0;
	}
	free(tags->first_pre_example);
	if (!(tags->first_pre_example = strdup(name)))
		return rolling_error_nomem();
	tags->first_pre_version = *v;
	return 0;
}

static int note_both(struct rolling_tags *tags, const char *name)
{
	tags->both_nr++;
	if (tags->both_example && strcmp(tags->both_example, name) < 0)
		return 0;
	free(tags->both_example);
	if (!(tags->both_example = strdup(name)))
		return rolling_error_nomem();
	return 0;
}

/*
 * Note what the name of a tag says; returns 1 for a release tag, whose
 * version is then in *version, 0 for any other, or a negative error.
 */
static int classify_tag(struct loader *l, const char *name, struct rolling_version *version)
{
	enum rolling_tag_kind kind;

	int err = rolling_patterns_classify(l->patterns, name, &kind, version), both;

	if (err == ROLLING_PATTERN_ELIMIT)
		return err;
	if (err < 0) {
		rolling_warning("ignoring %s", rolling_last_error());
		return 0;
	}
	if (kind == ROLLING_TAG_OTHER)
		return 0;
	l->tags->forms |= ROLLING_SERIES_FORM(version->series.parts);
	if (kind == ROLLING_TAG_MAINLINE) {
		if (note_mainline(l->tags, version) < 0)
			return ROLLING_ERROR;
		return note_pre_example(l->tags, name, version);
	}
	if ((both = rolling_patterns_match_both(l->patterns, name)) < 0)
		return both;
	if (both && note_both(l->tags, name) < 0)
		return ROLLING_ERROR;
	note_release(l->tags, version);
	return 1;
}

/* A release tag: `target` is what refs/tags/<name> names, `peeled` its trusted peel or NULL. */
static int load_release(struct loader *l, const char *name, const struct rolling_version *version,
			const git_oid *target, const git_oid *peeled)
{
	git_oid commit;
	int err;

	if (!(err = peel_to_commit(&commit, l, target, peeled, name)))
		err = add_release(l, name, version, target, &commit);
	return err < 0 ? err : 0;
}

static int load_ref(struct loader *l, git_reference *ref)
{
	const char *name = git_reference_name(ref) + strlen(TAG_PREFIX);
	git_reference *resolved = NULL;
	struct rolling_version version;
	int err;

	if ((err = classify_tag(l, name, &version)) <= 0)
		return err;
	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC) {
		if ((err = git_reference_resolve(&resolved, ref)) == GIT_ENOTFOUND) {
			rolling_warning("ignoring release tag '%s': it is a symbolic ref to %s,"
					" which does not exist", name,
					git_reference_symbolic_target(ref));
			return 0;
		}
		if (err < 0)
			return rolling_git_error(err, "tag '%s'", name);
		ref = resolved;
	}
	err = load_release(l, name, &version, git_reference_target(ref),
			   git_reference_target_peel(ref));
	git_reference_free(resolved);
	return err;
}

static int cmp_release(const void *a, const void *b)
{
	const struct rolling_release *ra = a, *rb = b;
	int c = rolling_version_cmp(&ra->version, &rb->version);

	return c ? c : strcmp(ra->name, rb->name);
}

/*
 * Two tags may spell one version with a custom pattern ("v1.2.3" and
 * "1.2.3"); keep the first by name so the choice is stable.
 */
static void drop_duplicates(struct rolling_tags *tags)
{
	size_t i, kept = 0;

	for (i = 0; i < tags->releases_nr; i++) {
		if (kept && !rolling_version_cmp(&tags->releases[kept - 1].version,
						 &tags->releases[i].version)) {
			rolling_warning("ignoring release tag '%s': '%s' names the same version",
					tags->releases[i].name, tags->releases[kept - 1].name);
			free(tags->releases[i].name);
			free(tags->releases[i].problem);
			continue;
		}
		tags->releases[kept++] = tags->releases[i];
	}
	tags->releases_nr = kept;
}

static int index_releases(struct rolling_tags *tags)
{
	size_t i;

	tags->series = calloc(tags->releases_nr + 1, sizeof(*tags->series));
	if (!tags->series)
		return rolling_error_nomem();
	tags->series_alloc = tags->releases_nr + 1;
	for (i = 0; i < tags->releases_nr; i++) {
		const struct rolling_release *r = &tags->releases[i];
		struct rolling_series_info *last = tags->series_nr ?
			&tags->series[tags->series_nr - 1] : NULL;

		if (!last || rolling_series_cmp(&last->series, &r->version.series)) {
			last = &tags->series[tags->series_nr++];
			last->series = r->version.series;
			last->first = i;
		}
		last->count++;
		/* Ascending order: a commit tagged twice maps to its highest release. */
		if (rolling_oidmap_put(&tags->by_commit, &r->commit, i) < 0)
			return ROLLING_ERROR;
	}
	return 0;
}

int rolling_tags_load(struct rolling_tags *tags, git_repository *repo,
		      struct rolling_patterns *patterns)
{
	struct loader l = { tags, repo, NULL, patterns };
	git_reference_iterator *iter = NULL;
	git_reference *ref;
	int err;

	memset(tags, 0, sizeof(*tags));
	tags->forms = patterns->forms;
	tags->repo = repo;
	if ((err = git_repository_odb(&l.odb, repo)) < 0 ||
	    (err = git_reference_iterator_glob_new(&iter, repo, TAG_PREFIX "*")) < 0) {
		err = rolling_git_error(err, "cannot read tags");
		goto out;
	}
	while (!(err = git_reference_next(&ref, iter))) {
		err = load_ref(&l, ref);
		git_reference_free(ref);
		if (err < 0)
			goto out;
	}
	if (err != GIT_ITEROVER) {
		err = rolling_git_error(err, "cannot read tags");
		goto out;
	}
	if (tags->releases_nr)  /* qsort() wants a valid array even for none */
		qsort(tags->releases, tags->releases_nr, sizeof(*tags->releases), cmp_release);
	drop_duplicates(tags);
	err = index_releases(tags);
out:
	git_reference_iterator_free(iter);
	git_odb_free(l.odb);
	if (err < 0)
		rolling_tags_release(tags);
	return err < 0 ? err : 0;
}

int rolling_tags_add(struct rolling_tags *tags, struct rolling_patterns *patterns,
		     const struct rolling_tag_ref *extra, size_t extra_nr)
{
	struct loader l = { tags, tags->repo, NULL, patterns };
	struct rolling_version version;
	size_t i;
	int err = 0;

	if (!extra_nr)
		return 0;
	if ((err = git_repository_odb(&l.odb, tags->repo)) < 0)
		return rolling_git_error(err, "cannot read tags");
	for (i = 0; i < extra_nr && err >= 0; i++)
		if ((err = classify_tag(&l, extra[i].name, &version)) > 0)
			err = load_release(&l, extra[i].name, &version, &extra[i].target, NULL);
	git_odb_free(l.odb);
	if (err < 0)
		return err;
	if (tags->releases_nr)  /* as above: none may be no array */
		qsort(tags->releases, tags->releases_nr, sizeof(*tags->releases), cmp_release);
	drop_duplicates(tags);
	free(tags->series);
	tags->series = NULL;
	tags->series_nr = tags->series_alloc = 0;
	rolling_oidmap_release(&tags->by_commit);
	return index_releases(tags);
}

static int cmp_version_key(const void *key, const void *elem)
{
	const struct rolling_release *r = elem;

	return rolling_version_cmp(key, &r->version);
}

const struct rolling_release *rolling_tags_find_version(const struct rolling_tags *tags,
						       const struct rolling_version *version)
{
	if (!tags->releases_nr)
		return NULL;
	return bsearch(version, tags->releases, tags->releases_nr,
		       sizeof(*tags->releases), cmp_version_key);
}

const struct rolling_release *rolling_tags_find_name(const struct rolling_tags *tags,
						    struct rolling_patterns *patterns,
						    const char *name)
{
	const struct rolling_release *r;
	struct rolling_version version;
	enum rolling_tag_kind kind;

	if (rolling_patterns_classify(patterns, name, &kind, &version) < 0 ||
	    kind != ROLLING_TAG_RELEASE)
		return NULL;
	r = rolling_tags_find_version(tags, &version);
	return r && !strcmp(r->name, name) ? r : NULL;
}

const struct rolling_release *rolling_tags_find_commit(const struct rolling_tags *tags,
						      const git_oid *commit)
{
	size_t i;

	return rolling_oidmap_get(&tags->by_commit, commit, &i) ? &tags->releases[i] : NULL;
}

static int cmp_series_key(const void *key, const void *elem)
{
	const struct rolling_series_info *info = elem;

	return rolling_series_cmp(key, &info->series);
}

const struct rolling_series_info *rolling_tags_find_series(const struct rolling_tags *tags,
							  const struct rolling_series *s)
{
	if (!tags->series_nr)
		return NULL;
	return bsearch(s, tags->series, tags->series_nr, sizeof(*tags->series),
		       cmp_series_key);
}

static int unsound(struct rolling_release *r, const char *fmt, ...) ROLLING_PRINTF(2, 3);

/* Record why the release cannot be used; returns 0 (the check ran). */
static int unsound(struct rolling_release *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->problem = rolling_vstrfmt(fmt, ap);
	va_end(ap);
	if (!r->problem)
		return rolling_error_nomem();
	r->is_commit = -1;
	return 0;
}

/*
 * One tag object on the way from the ref to the commit: its headers must
 * tell the truth.  Sets *next to the object it names and *actual to its
 * type; returns 1 when it is sound, 0 after unsound(), or a negative error.
 */
static int check_tag_object(git_oid *next, git_object_t *actual, struct rolling_release *r,
			    git_repository *repo, git_odb *odb, const git_oid *id, int outermost)
{
	char h[GIT_OID_HEXSZ + 1], t[GIT_OID_HEXSZ + 1];
	git_object_t said;
	git_tag *tag;
	size_t size;
	int err;

	if ((err = git_tag_lookup(&tag, repo, id)) < 0)
		return unsound(r, "tag object %s cannot be read: %s",
			       git_oid_tostr(h, sizeof(h), id), last_git_error());
	git_oid_cpy(next, git_tag_target_id(tag));
	said = git_tag_target_type(tag);
	if (outermost && strcmp(git_tag_name(tag), r->name)) {
		err = unsound(r, "its tag object %s is the tag '%s', published under another name",
			      git_oid_tostr(h, sizeof(h), id), git_tag_name(tag));
		git_tag_free(tag);
		return err;
	}
	git_tag_free(tag);
	if ((err = git_odb_read_header(&size, actual, odb, next)) == GIT_ENOTFOUND)
		return unsound(r, "object %s is missing", git_oid_tostr(t, sizeof(t), next));
	if (err < 0)
		return rolling_git_error(err, "tag '%s'", r->name);
	if (said != *actual)
		return unsound(r, "tag object %s says %s is a %s, but it is a %s (git treats the"
			       " tag as broken)", git_oid_tostr(h, sizeof(h), id),
			       git_oid_tostr(t, sizeof(t), next), type_name(said),
			       type_name(*actual));
	return 1;
}

/* Walk the tag objects from the ref to a commit; see rolling_release_check(). */
static int check_from_objects(struct rolling_release *r, git_repository *repo, git_odb *odb)
{
	char h[GIT_OID_HEXSZ + 1], c[GIT_OID_HEXSZ + 1];
	git_object_t type;
	git_oid id, next;
	size_t size;
	int depth, err;

	git_oid_cpy(&id, &r->tag);
	if ((err = git_odb_read_header(&size, &type, odb, &id)) == GIT_ENOTFOUND)
		return unsound(r, "object %s is missing", git_oid_tostr(h, sizeof(h), &id));
	if (err < 0)
		return rolling_git_error(err, "tag '%s'", r->name);
	for (depth = 0; depth < MAX_TAG_DEPTH && type != GIT_OBJECT_COMMIT; depth++) {
		if (type != GIT_OBJECT_TAG)
			return unsound(r, "it points to a %s, not a commit", type_name(type));
		if ((err = check_tag_object(&next, &type, r, repo, odb, &id, !depth)) <= 0)
			return err;
		git_oid_cpy(&id, &next);
	}
	if (type != GIT_OBJECT_COMMIT)
		return unsound(r, "tags nested too deeply");
	if (!git_oid_equal(&id, &r->commit))
		return unsound(r, "its objects lead to %s, but %s says %s",
			       git_oid_tostr(h, sizeof(h), &id),
			       rolling_repo_is_reftable(repo) > 0 ? "its reftable record" : "packed-refs",
			       git_oid_tostr(c, sizeof(c), &r->commit));
	r->is_commit = 1;
	return 0;
}

int rolling_release_check(const char **problem, const struct rolling_tags *tags,
			  const struct rolling_release *release)
{
	/* The releases array is the tags' own: the verdict is kept in it. */
	struct rolling_release *r = &tags->releases[release - tags->releases];
	git_odb *odb;
	int err;

	if (!r->is_commit) {
		if ((err = git_repository_odb(&odb, tags->repo)) < 0)
			return rolling_git_error(err, "cannot open the object database");
		err = check_from_objects(r, tags->repo, odb);
		git_odb_free(odb);
		if (err < 0)
			return err;
	}
	*problem = r->problem;
	return r->is_commit > 0;
}

int rolling_release_is_commit(const struct rolling_tags *tags,
			      const struct rolling_release *release)
{
	int checked = release->is_commit;
	const char *problem = NULL;
	int sound = rolling_release_check(&problem, tags, release);

	if (sound < 0)
		rolling_warning("ignoring release tag '%s': %s", release->name,
				rolling_last_error());
	else if (!sound && !checked)
		rolling_warning("ignoring release tag '%s': %s", release->name,
				problem ? problem : "it cannot be used");
	return sound > 0;
}

const struct rolling_release *rolling_series_newest(const struct rolling_tags *tags,
						    const struct rolling_series_info *info)
{
	size_t i;

	for (i = info->first + info->count; i-- > info->first;)
		if (rolling_release_is_commit(tags, &tags->releases[i]))
			return &tags->releases[i];
	return NULL;
}

void rolling_tags_init_empty(struct rolling_tags *tags, git_repository *repo, unsigned forms)
{
	memset(tags, 0, sizeof(*tags));
	tags->repo = repo;
	tags->forms = forms;
}

int rolling_tags_add_mainline(struct rolling_tags *tags, const struct rolling_version *version)
{
	return note_mainline(tags, version);
}

/*
 * The index of the first of `nr` sorted elements of `size` bytes that
 * is not before `key` (the lower bound, where bsearch() finds only an
 * equal one); `cmp` compares as bsearch()'s does, the key first.
 */
static size_t lower_bound(const void *key, const void *base, size_t nr, size_t size,
			  int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t release_position(const struct rolling_tags *tags, const struct rolling_version *v)
{
	return lower_bound(v, tags->releases, tags->releases_nr, sizeof(*tags->releases),
			   cmp_version_key);
}

static size_t series_position(const struct rolling_tags *tags, const struct rolling_series *s)
{
	return lower_bound(s, tags->series, tags->series_nr, sizeof(*tags->series),
			   cmp_series_key);
}

/* Make room for the release at `at` in its series' entry, new or not. */
static int index_added(struct rolling_tags *tags, const struct rolling_series *s, size_t at)
{
	size_t i = series_position(tags, s), k;

	if (i == tags->series_nr || rolling_series_cmp(&tags->series[i].series, s)) {
		if (ALLOC_GROW(tags->series, tags->series_nr + 1, tags->series_alloc) < 0)
			return ROLLING_ERROR;
		memmove(&tags->series[i + 1], &tags->series[i],
			(tags->series_nr - i) * sizeof(*tags->series));
		tags->series_nr++;
		tags->series[i].series = *s;
		tags->series[i].first = at;
		tags->series[i].count = 0;
	}
	tags->series[i].count++;
	for (k = i + 1; k < tags->series_nr; k++)
		tags->series[k].first++;
	return 0;
}

int rolling_tags_add_release(struct rolling_tags *tags, const struct rolling_release *release)
{
	size_t at = release_position(tags, &release->version);
	struct rolling_release copy = *release;

	if (at < tags->releases_nr && !rolling_version_cmp(&tags->releases[at].version,
							   &release->version))
		return 0;
	copy.problem = NULL;
	if (ALLOC_GROW(tags->releases, tags->releases_nr + 1, tags->releases_alloc) < 0)
		return ROLLING_ERROR;
	if (!(copy.name = strdup(release->name)) ||
	    (release->problem && !(copy.problem = strdup(release->problem)))) {
		free(copy.name);
		return rolling_error_nomem();
	}
	memmove(&tags->releases[at + 1], &tags->releases[at],
		(tags->releases_nr - at) * sizeof(*tags->releases));
	tags->releases[at] = copy;
	tags->releases_nr++;
	note_release(tags, &release->version);
	return index_added(tags, &release->version.series, at);
}

int rolling_tags_check_unambiguous(const struct rolling_tags *tags, const char *release_key,
				   const char *mainline_key)
{
	if (!tags->both_nr)
		return 0;
	if (!release_key || !mainline_key)
		return rolling_error("tag '%s'%s matches both the release and the mainline"
				     " pattern: a tag is a release or a mainline tag, not both",
				     tags->both_example, tags->both_nr > 1 ? " (and others)" : "");
	return rolling_error("tag '%s'%s matches both the release pattern (%s) and the mainline"
			     " pattern (%s): a tag is a release or a mainline tag, not both",
			     tags->both_example, tags->both_nr > 1 ? " (and others)" : "",
			     release_key, mainline_key);
}

void rolling_tags_release(struct rolling_tags *tags)
{
	size_t i;

	for (i = 0; i < tags->releases_nr; i++) {
		free(tags->releases[i].name);
		free(tags->releases[i].problem);
	}
	free(tags->releases);
	free(tags->series);
	free(tags->mainline_series);
	free(tags->both_example);
	free(tags->first_pre_example);
	rolling_oidmap_release(&tags->by_commit);
	memset(tags, 0, sizeof(*tags));
}

int rolling_tags_series_after(struct rolling_series *out, const struct rolling_tags *tags,
			      const struct rolling_series *s, int mainline)
{
	size_t i, at;
	int found = 0;

	for (i = 0; i < tags->series_nr && !found; i++)
		if (rolling_series_cmp(&tags->series[i].series, s) > 0) {
			*out = tags->series[i].series;
			found = 1;
		}
	if (!mainline)
		return found;
	at = lower_bound(s, tags->mainline_series, tags->mainline_series_nr, sizeof(*s),
			 cmp_mainline_series_key);
	if (at < tags->mainline_series_nr && !rolling_series_cmp(&tags->mainline_series[at], s))
		at++;
	if (at < tags->mainline_series_nr &&
	    (!found || rolling_series_cmp(&tags->mainline_series[at], out) < 0)) {
		*out = tags->mainline_series[at];
		found = 1;
	}
	return found;
}
