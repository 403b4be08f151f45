#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmdline-config.h"
#include "config-worktree.h"
#include "error.h"
#include "quote.h"
#include "strbuf.h"
#include "tempfile.h"

static void write_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* Write "section.sub.section.key" = value as a config file entry. */
static int write_entry(FILE *out, const char *key, const char *value)
{
	const char *first = strchr(key, '.'), *last = strrchr(key, '.');

	if (!first || !last[1] || first == key)
		return rolling_error("bogus config key in the environment: '%s'", key);
	fprintf(out, "[%.*s", (int)(first - key), key);
	if (first != last) {
		char *sub = strndup(first + 1, (size_t)(last - first - 1));

		if (!sub)
			return rolling_error_nomem();
		fputs(" \"", out);
		write_escaped(out, sub);
		fputc('"', out);
		free(sub);
	}
	fprintf(out, "]\n\t%s", last + 1);
	if (value) {
		fputs(" = \"", out);
		write_escaped(out, value);
		fputc('"', out);
	}
	fputc('\n', out);
	return 0;
}

/* 'key'='value' pairs (git >= 2.31) or 'key=value' words (older git). */
static int write_parameters(FILE *out, const char *params)
{
	const char *p = params;
	int err = 0;

	while (!err && *p) {
		char *key = NULL, *value = NULL, *eq;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (!(p = rolling_sq_dequote_word(&key, p))) {
			free(key);
			return rolling_error("bogus GIT_CONFIG_PARAMETERS: %s", params);
		}
		if (*p == '=' && p[1] != '\'') {
			p++;  /* "git -c key": no value at all, which means true */
		} else if (*p == '=') {
			if (!(p = rolling_sq_dequote_word(&value, p + 1))) {
				free(key);
				free(value);
				return rolling_error("bogus GIT_CONFIG_PARAMETERS: %s", params);
			}
		} else if ((eq = strchr(key, '='))) {
			*eq = '\0';
			value = strdup(eq + 1);
		}
		err = write_entry(out, key, value);
		free(key);
		free(value);
	}
	return err;
}

static int write_counted(FILE *out, const char *count_text)
{
	char *end, name[64];
	long count = strtol(count_text, &end, 10), i;

	if (*end || count < 0)
		return rolling_error("bogus GIT_CONFIG_COUNT: %s", count_text);
	for (i = 0; i < count; i++) {
		const char *key, *value;
		int err;

		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", i);
		if (!(key = getenv(name)))
			return rolling_error("missing config key %s", name);
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", i);
		if (!(value = getenv(name)))
			return rolling_error("missing config value %s", name);
		if ((err = write_entry(out, key, value)) < 0)
			return err;
	}
	return 0;
}

int rolling_apply_cmdline_config(git_repository *repo)
{
	const char *params = getenv("GIT_CONFIG_PARAMETERS");
	const char *count = getenv("GIT_CONFIG_COUNT");
	const char *tmpdir = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT;
	struct rolling_tempfile file;
	git_config *config = NULL;
	FILE *out = NULL;
	int err;

	if ((!params || !*params) && (!count || !*count))
		return 0;
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	/*
	 * libgit2 has no public in-memory config backend: the settings go
	 * through a private file that libgit2 reads when it is added; a
	 * registered temporary file (tempfile.h), which a killed run does
	 * not leave behind.
	 */
	strbuf_addf(&path, "%s/git-rolling-config.XXXXXX", tmpdir);
	if (strbuf_oom(&path))
		return rolling_error_nomem();
	if (rolling_tempfile_mkstemp(&file, path.buf) < 0 ||
	    !(out = rolling_tempfile_fdopen(&file, "w"))) {
		err = rolling_error("cannot create a temporary file in %s: %m", tmpdir);
		rolling_tempfile_delete(&file);
		strbuf_release(&path);
		return err;
	}
	err = 0;
	if (count && *count)
		err = write_counted(out, count);
	if (!err && params && *params)
		err = write_parameters(out, params);
	if (fclose(out) && !err)
		err = rolling_error("cannot write %s: %m", path.buf);
	if (!err && (err = git_repository_config(&config, repo)) >= 0 &&
	    (err = git_config_add_file_ondisk(config, path.buf,
					      ROLLING_CONFIG_LEVEL_COMMAND_LINE, repo, 0)) < 0)
		err = rolling_git_error(err, "cannot read the command line configuration");
	else if (err < 0 && !config)
		err = err == ROLLING_ERROR ? err : rolling_git_error(err, "cannot read the configuration");
	git_config_free(config);
	rolling_tempfile_delete(&file);
	strbuf_release(&path);
	return err < 0 ? err : 0;
}
