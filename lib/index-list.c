#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "index-list.h"
#include "alloc.h"
#include "error.h"
#include "run-command.h"

int rolling_index_child(struct rolling_child *git, git_repository *repo, const char *index_file)
{
	const char *top = git_repository_workdir(repo);

	if (!top)
		return rolling_error("'%s' has no work tree", git_repository_path(repo));
	rolling_strvec_push(&git->args, "-C");
	rolling_strvec_push(&git->args, top);
	rolling_env_push(&git->env, "GIT_DIR", git_repository_path(repo));
	rolling_env_push(&git->env, "GIT_WORK_TREE", top);
	return rolling_env_push(&git->env, "GIT_INDEX_FILE", index_file);
}

/* "<tag> <mode> <id> <stage>\t<path>", as ls-files -s -t prints it. */
static int parse_entry(struct rolling_index_list *list, char *record)
{
	char *tab = strchr(record, '\t'), *id, *stage;
	struct rolling_index_entry *e;

	if (!tab || record[0] == '\0' || record[1] != ' ' ||
	    !(id = strchr(record + 2, ' ')) || !(stage = strchr(id + 1, ' ')) || stage > tab)
		return rolling_error("git ls-files printed what it should not: %s", record);
	*tab = '\0';
	if (strcmp(stage + 1, "0"))
		return 0;       /* unmerged: no work-tree version to speak of */
	if (ALLOC_GROW(list->entries, list->nr + 1, list->alloc) < 0)
		return rolling_error_nomem();
	e = &list->entries[list->nr];
	*stage = '\0';
	if (git_oid_fromstr(&e->id, id + 1) < 0)
		return rolling_error("git ls-files printed what it should not: %s", record);
	e->path = tab + 1;
	e->skip_worktree = record[0] == 'S';
	list->nr++;
	return 0;
}

int rolling_index_list_read(struct rolling_index_list *list, git_repository *repo,
			    const char *index_file)
{
	const char *args[] = { "ls-files", "--stage", "-t", "-z", NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	char *record, *next;
	int status, err = 0;

	memset(list, 0, sizeof(*list));
	git.out = ROLLING_CHILD_CAPTURE;
	if ((status = rolling_index_child(&git, repo, index_file)) >= 0 &&
	    (status = rolling_strvec_pushv(&git.args, args)) >= 0 &&
	    (status = rolling_child_run(&git)) > 0)
		status = rolling_error("git ls-files cannot read the index '%s'", index_file);
	if (!status && !(list->text = strbuf_detach(&git.captured)))
		status = rolling_error_nomem();
	rolling_child_release(&git);
	if (status < 0)
		return status;
	/* NUL-terminated records, then the NUL that ends the capture. */
	for (record = list->text; !err && *record; record = next) {
		next = record + strlen(record) + 1;
		err = parse_entry(list, record);
	}
	return err;
}

static int compare_path(const void *key, const void *entry)
{
	return strcmp(key, ((const struct rolling_index_entry *)entry)->path);
}

const struct rolling_index_entry *rolling_index_list_find(const struct rolling_index_list *list,
							   const char *path)
{
	/* Index order is byte order of the paths, as strcmp() sees it. */
	return list->nr ? bsearch(path, list->entries, list->nr, sizeof(*list->entries),
				  compare_path) : NULL;
}

void rolling_index_list_release(struct rolling_index_list *list)
{
	free(list->entries);
	free(list->text);
	memset(list, 0, sizeof(*list));
}
