#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "abbrev.h"
#include "config.h"
#include "repo-open.h"
#include "strbuf.h"
#include "error.h"

#define MINIMUM_ABBREV 4
#define FALLBACK_ABBREV 7
#define ALTERNATES_DEPTH 5

int rolling_abbrev_config(int *len, git_repository *repo)
{
	git_config *config;
	char *value = NULL, *end;
	long n;
	int err;

	*len = ROLLING_ABBREV_AUTO;
	if ((err = git_repository_config_snapshot(&config, repo)) < 0)
		return rolling_git_error(err, "cannot read the configuration");
	err = rolling_config_get_string(&value, config, "core.abbrev");
	git_config_free(config);
	if (err < 0 || !value || !strcasecmp(value, "auto"))
		goto out;
	if (!*value || !strcasecmp(value, "false") || !strcasecmp(value, "no") ||
	    !strcasecmp(value, "off")) {
		*len = GIT_OID_HEXSZ;
		goto out;
	}
	n = strtol(value, &end, 10);
	if (*end || end == value)
		err = rolling_error("bad numeric config value '%s' for 'core.abbrev'", value);
	else if (n < MINIMUM_ABBREV || n > GIT_OID_HEXSZ)
		err = rolling_error("core.abbrev: abbrev length out of range: %ld", n);
	else
		*len = (int)n;
out:
	free(value);
	return err;
}

/* The object count in a pack index's fan-out table (versions 1 and 2). */
static unsigned long idx_count(const char *path)
{
	static const unsigned char v2_magic[4] = { 0xff, 't', 'O', 'c' };
	unsigned char head[8], last[4];
	long fanout = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	if (fread(head, 1, sizeof(head), f) == sizeof(head) && !memcmp(head, v2_magic, 4))
		fanout = 8;
	if (fseek(f, fanout + 255 * 4, SEEK_SET) || fread(last, 1, 4, f) != 4) {
		fclose(f);
		return 0;
	}
	fclose(f);
	return (unsigned long)last[0] << 24 | (unsigned long)last[1] << 16 |
	       (unsigned long)last[2] << 8 | last[3];
}

/*
 * Git counts a pack only when both its .idx and its .pack are there.
 * (Out of memory, the count is short: it only chooses a starting length.)
 */
static unsigned long count_packs(const char *objects)
{
	struct strbuf path = STRBUF_INIT;
	unsigned long count = 0;
	struct dirent *e;
	struct stat st;
	size_t dir_len;
	DIR *dir;

	strbuf_addf(&path, "%s/pack", objects);
	dir_len = path.len;
	dir = strbuf_oom(&path) ? NULL : opendir(path.buf);
	while (dir && (e = readdir(dir))) {
		size_t len = strlen(e->d_name);

		if (len < 4 || strcmp(e->d_name + len - 4, ".idx"))
			continue;
		strbuf_setlen(&path, dir_len);
		strbuf_addf(&path, "/%.*s.pack", (int)(len - 4), e->d_name);
		if (strbuf_oom(&path))
			break;
		if (stat(path.buf, &st))
			continue;
		strbuf_setlen(&path, dir_len);
		strbuf_addf(&path, "/%s", e->d_name);
		if (strbuf_oom(&path))
			break;
		count += idx_count(path.buf);
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	return count;
}

/* This object directory's packs and those of its alternates. */
static unsigned long count_objects(const char *objects, int depth)
{
	unsigned long count = count_packs(objects);
	struct strbuf path = STRBUF_INIT;
	char *line = NULL;
	size_t size = 0;
	FILE *f = NULL;

	if (depth < ALTERNATES_DEPTH) {
		strbuf_addf(&path, "%s/info/alternates", objects);
		if (!strbuf_oom(&path))
			f = fopen(path.buf, "r");
	}
	while (f && getline(&line, &size, f) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		if (*line == '/') {
			count += count_objects(line, depth + 1);
			continue;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", objects, line);
		if (!strbuf_oom(&path))
			count += count_objects(path.buf, depth + 1);
	}
	free(line);
	if (f)
		fclose(f);
	strbuf_release(&path);
	return count;
}

static unsigned long repository_objects(git_repository *repo)
{
	char *dir = rolling_repo_objects_dir(repo);
	unsigned long count = dir ? count_objects(dir, 0) : 0;

	free(dir);
	return count;
}

int rolling_abbrev_start(int *start, git_repository *repo, int len)
{
	unsigned long count;
	int bits = 0;

	if (len != ROLLING_ABBREV_AUTO) {
		*start = len;
		return 0;
	}
	/*
	 * About 2^bits objects make a collision likely at 2^(bits/2), and a
	 * hex digit holds 4 bits: half the bits, rounded up, in digits.
	 */
	count = repository_objects(repo);
	while (count >>= 1)
		bits++;
	*start = (bits + 1 + 1) / 2;
	if (*start < FALLBACK_ABBREV)
		*start = FALLBACK_ABBREV;
	return 0;
}

int rolling_abbrev_oid(char *buf, git_repository *repo, int start, const git_oid *id)
{
	git_odb *odb;
	git_oid found;
	size_t len = start > 0 ? (size_t)start : GIT_OID_HEXSZ;
	int err = 0;

	git_oid_tostr(buf, GIT_OID_HEXSZ + 1, id);
	if (len >= GIT_OID_HEXSZ)
		return 0;
	if ((err = git_repository_odb(&odb, repo)) < 0)
		return rolling_git_error(err, "cannot read the object database");
	/*
	 * As git's find_unique_abbrev(): long enough that no other object
	 * starts so, whether or not `id` is stored yet (a dry run's merge
	 * is not, and must read as it will once written).
	 */
	for (; len < GIT_OID_HEXSZ; len++) {
		err = git_odb_exists_prefix(&found, odb, id, len);
		if (err != GIT_EAMBIGUOUS && (err < 0 || git_oid_equal(&found, id)))
			break;
	}
	git_odb_free(odb);
	if (err < 0 && err != GIT_EAMBIGUOUS && err != GIT_ENOTFOUND)
		return rolling_git_error(err, "cannot abbreviate %s", buf);
	buf[len] = '\0';
	return 0;
}

const char *rolling_abbrev(char *buf, git_repository *repo, const git_oid *id)
{
	int len, start;

	if (rolling_abbrev_config(&len, repo) < 0 || rolling_abbrev_start(&start, repo, len) < 0 ||
	    rolling_abbrev_oid(buf, repo, start, id) < 0) {
		free(rolling_error_take());
		git_oid_tostr(buf, ROLLING_ABBREV_FALLBACK + 1, id);
	}
	return buf;
}
