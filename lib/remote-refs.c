#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote-refs.h"
#include "alloc.h"
#include "error.h"

#define TAG_PREFIX "refs/tags/"

static struct rolling_remote_ref *find(const struct rolling_remote_refs *refs, const char *name)
{
	size_t i;

	for (i = refs->nr; i-- > 0;)
		if (!strcmp(refs->refs[i].name, name))
			return &refs->refs[i];
	return NULL;
}

static int add_ref(struct rolling_remote_refs *refs, const char *name, const git_oid *oid)
{
	struct rolling_remote_ref *ref;

	if (ALLOC_GROW(refs->refs, refs->nr + 1, refs->alloc) < 0)
		return ROLLING_ERROR;
	ref = &refs->refs[refs->nr];
	if (!(ref->name = strdup(name)))
		return rolling_error_nomem();
	git_oid_cpy(&ref->oid, oid);
	git_oid_cpy(&ref->peeled, oid);
	refs->nr++;
	return 0;
}

/*
 * The object a tag finally names, read from the objects (the fetch
 * brought the tag's, or the repository had them).  One that cannot be
 * read stays as it is: what names it then matches no release commit,
 * and verify judges the tag, should a step need it.
 */
static void peel(git_oid *peeled, git_repository *repo, const git_oid *oid)
{
	git_object *object, *target;

	if (git_object_lookup(&object, repo, oid, GIT_OBJECT_ANY) < 0)
		return;
	if (git_object_type(object) == GIT_OBJECT_TAG &&
	    !git_tag_peel(&target, (git_tag *)object)) {
		git_oid_cpy(peeled, git_object_id(target));
		git_object_free(target);
	}
	git_object_free(object);
}

static int add_branch(struct rolling_remote_refs *refs, git_repository *view_repo,
		      const char *remote_ref)
{
	char *ref = rolling_fetch_view_ref(remote_ref);
	git_oid tip;
	int err;

	if (!ref)
		return rolling_error_nomem();
	err = git_reference_name_to_id(&tip, view_repo, ref);
	free(ref);
	if (err == GIT_ENOTFOUND)
		return rolling_error("couldn't find remote ref %s", remote_ref);
	if (err < 0)
		return rolling_git_error(err, "cannot read what git fetched of %s", remote_ref);
	return add_ref(refs, remote_ref, &tip);
}

struct followed {
	struct rolling_remote_refs *refs;
	git_repository *repo;
	const struct rolling_fetch_view *view;
	int err;
};

/* A tag of the view that git wrote (not one of the repository's names). */
static int add_followed(git_reference *ref, void *data)
{
	struct followed *f = data;
	const char *name = git_reference_name(ref);
	struct rolling_remote_ref *added;

	if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
	    !strncmp(name, TAG_PREFIX, strlen(TAG_PREFIX)) &&
	    !rolling_fetch_view_has_own(f->view, name)) {
		if ((f->err = add_ref(f->refs, name, git_reference_target(ref))) < 0) {
			git_reference_free(ref);
			return 1;
		}
		added = &f->refs->refs[f->refs->nr - 1];
		peel(&added->peeled, f->repo, &added->oid);
	}
	git_reference_free(ref);
	return 0;
}

static int index_tags(struct rolling_remote_refs *refs)
{
	size_t i;

	for (i = 0; i < refs->nr; i++)
		if (!strncmp(refs->refs[i].name, TAG_PREFIX, strlen(TAG_PREFIX)) &&
		    rolling_oidmap_put(&refs->tags_by_peeled, &refs->refs[i].peeled, i) < 0)
			return ROLLING_ERROR;
	return 0;
}

int rolling_remote_refs_read(struct rolling_remote_refs *refs, git_repository *repo,
			     const struct rolling_fetch_view *view,
			     const char *const *remote_refs, size_t nr)
{
	struct followed f = { refs, repo, view, 0 };
	git_repository *view_repo;
	size_t i;
	int err;

	memset(refs, 0, sizeof(*refs));
	if ((err = git_repository_open_bare(&view_repo, view->git_dir)) < 0)
		return rolling_git_error(err, "cannot read what git fetched into %s", view->git_dir);
	for (i = 0; i < nr && !err; i++)
		err = add_branch(refs, view_repo, remote_refs[i]);
	if (!err && (err = git_reference_foreach(view_repo, add_followed, &f)) < 0 && !f.err)
		err = rolling_git_error(err, "cannot read what git fetched into %s", view->git_dir);
	if (f.err)
		err = f.err;
	git_repository_free(view_repo);
	if (!err)
		err = index_tags(refs);
	if (err)
		rolling_remote_refs_release(refs);
	return err;
}

const struct rolling_remote_ref *rolling_remote_refs_find(const struct rolling_remote_refs *refs,
							  const char *name)
{
	return find(refs, name);
}

const struct rolling_remote_ref *rolling_remote_refs_tag_of(const struct rolling_remote_refs *refs,
							    const git_oid *commit)
{
	size_t i;

	return rolling_oidmap_get(&refs->tags_by_peeled, commit, &i) ? &refs->refs[i] : NULL;
}

void rolling_remote_refs_release(struct rolling_remote_refs *refs)
{
	size_t i;

	for (i = 0; i < refs->nr; i++)
		free(refs->refs[i].name);
	free(refs->refs);
	rolling_oidmap_release(&refs->tags_by_peeled);
	memset(refs, 0, sizeof(*refs));
}
