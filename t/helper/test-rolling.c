/*
 * test-rolling: exposes library functions to the test suite, as git's
 * test-tool does, so that pattern and version handling can be tested
 * without building a repository for every case.
 *
 *   test-rolling classify <preset> <tag>...
 *   test-rolling classify-re <release-re> <mainline-re> <tag>...
 *   test-rolling series <forms> <text>...   (forms: "12" for 1 or 2 numbers)
 *   test-rolling strbuf <op>...   (add <s>, addch <c>, addf <s>, read <file>,
 *                                  setlen <n>, reset, detach, oom, show)
 *   test-rolling alloc-grow <nr> [<then>]   (grow an array one at a time, then to <then>)
 *   test-rolling fetch-plan [--[no-]signatures] <remote> [<branch>...]
 *                           (what git rolling fetch fetches, into a quarantine it
 *                            then removes, and which release tags the new steps
 *                            need; in the repository of the current directory)
 *   test-rolling refs           (every ref under refs/ as libgit2 sees it in the
 *                                repository of the current directory, as
 *                                git for-each-ref --format='%(objectname) %(*objectname)
 *                                %(refname) %(symref)' prints it; a direct ref's
 *                                object as listed; a symbolic ref's as git
 *                                resolves it, through every symbolic ref on the
 *                                way: the last ref's name, object and peeled
 *                                object)
 *   test-rolling ref <name>...  (one line a name: "<name> <oid>" or
 *                                "<name> -> <target>" (the target it names, as
 *                                git symbolic-ref --no-recurse prints it), or
 *                                "<name> missing")
 *   test-rolling reread <command> [<name>...]
 *                               ("before", the lines of ref for the names and
 *                                those of refs; then runs sh -c <command> (its
 *                                output on stderr), prints "after: exit <status>"
 *                                and the same lines again, all through one open
 *                                repository: what the library kept of a first
 *                                reading must not hide what the command changed)
 *   test-rolling work-tree      (the work tree of the repository git rolling
 *                                opens from the current directory, without
 *                                symbolic links and final '/', as git
 *                                rev-parse --show-toplevel prints it; "bare"
 *                                when it has none and git calls it bare,
 *                                "none" when git does not)
 *   test-rolling libgit2        (what lib/git2-compat.h made of the libgit2 it was
 *                                built against: "reads-reftable 0|1")
 *   test-rolling tempfile <what>... (registers files, says "ready", waits for a
 *                                line on stdin, says "done" and exits 0; see
 *                                tempfiles() for <what>)
 *   test-rolling lock <path> <timeout-ms> commit|rollback <content>
 *                               (takes <path>.lock, writes <content> in it, then
 *                                renames it over <path> or removes it)
 *   test-rolling child <option>... -- <git args>...
 *                               (one struct rolling_child run; see child() for
 *                                the options; says "status <n>")
 *   test-rolling ref-tx [-m <message>] [--create-reflog] [--set-ref-format <format>]
 *                       [--abort]
 *                               (one ref transaction (lib/refs.h) in the repository
 *                                of the current directory, of the lines of stdin:
 *                                "update <ref> <new> <old>", "create <ref> <new>",
 *                                "delete <ref> <old>", as git update-ref --stdin
 *                                takes them; with --set-ref-format, the repository's
 *                                extensions.refStorage is set to <format> after the
 *                                open and before the transaction; with --abort,
 *                                prepared, "prepared" printed, a line read from
 *                                stdin after the updates' empty line, then freed
 *                                without a commit, "aborted" printed and one more
 *                                line read; prints "ok", or "error: <message>"
 *                                and exits 1)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "../../lib/commit-header.h"
#include "../../lib/alloc.h"
#include "../../lib/strbuf.h"
#include "../../lib/pattern.h"
#include "../../lib/preset.h"
#include "../../lib/error.h"
#include "../../lib/fetch-plan.h"
#include "../../lib/quarantine.h"
#include "../../lib/refs.h"
#include "../../lib/repo.h"
#include "../../lib/repo-open.h"
#include "../../lib/setup.h"
#include "../../lib/git2-compat.h"
#include "../../lib/fd-io.h"
#include "../../lib/lockfile.h"
#include "../../lib/tempfile.h"
#include "../../lib/run-command.h"

static void print_version(const char *kind, const struct rolling_version *v)
{
	char buf[ROLLING_SERIES_BUFSZ];

	printf("%s %s", kind, rolling_series_format(buf, &v->series));
	/* A release's patch may be 0: a series' first release (v2.44.0). */
	if (v->patch || !strcmp(kind, "release"))
		printf(" patch %u", (unsigned)v->patch);
	if (v->prerelease)
		printf(" rc %u", (unsigned)v->rc);
	putchar('\n');
}

static int classify(const char *release_re, const char *mainline_re, int n, char **names)
{
	struct rolling_patterns p;
	int i;

	if (rolling_patterns_compile(&p, release_re, "release", mainline_re, "mainline") < 0) {
		printf("error: %s\n", rolling_last_error());
		return 1;
	}
	for (i = 0; i < n; i++) {
		struct rolling_version v;
		enum rolling_tag_kind kind;

		printf("%s: ", names[i]);
		if (rolling_patterns_classify(&p, names[i], &kind, &v) < 0)
			printf("error: %s\n", rolling_last_error());
		else if (kind == ROLLING_TAG_RELEASE)
			print_version("release", &v);
		else if (kind == ROLLING_TAG_MAINLINE)
			print_version("mainline", &v);
		else
			printf("other\n");
	}
	rolling_patterns_release(&p);
	return 0;
}

static int series(const char *sizes, int n, char **texts)
{
	char buf[ROLLING_SERIES_BUFSZ];
	unsigned forms = 0;
	int i;

	for (; *sizes; sizes++)
		forms |= ROLLING_SERIES_FORM((unsigned)(*sizes - '0'));

	for (i = 0; i < n; i++) {
		struct rolling_series s;

		if (rolling_series_parse(&s, texts[i], forms, "series") < 0)
			printf("error: %s\n", rolling_last_error());
		else
			printf("%s\n", rolling_series_format(buf, &s));
	}
	return 0;
}

/*
 * "len=<len> oom=<0|1> <contents>", after checking what every strbuf
 * promises: NUL-terminated at len, no NUL before it, room for it.
 */
static int show_strbuf(const struct strbuf *sb)
{
	if (!sb->buf || sb->buf[sb->len] != '\0' || strlen(sb->buf) != sb->len ||
	    (sb->alloc && sb->alloc <= sb->len) || (!sb->alloc && sb->buf != strbuf_empty)) {
		printf("broken strbuf: len=%zu alloc=%zu\n", sb->len, sb->alloc);
		return 1;
	}
	printf("len=%zu oom=%d %s\n", sb->len, strbuf_oom(sb), sb->buf);
	return 0;
}

/* Each operation in turn on one strbuf; "show" prints it. */
static int strbuf_ops(int n, char **ops)
{
	struct strbuf sb = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; !ret && i < n; i++) {
		const char *op = ops[i], *arg = i + 1 < n ? ops[i + 1] : "";

		if (!strcmp(op, "add")) {
			strbuf_addstr(&sb, arg);
			i++;
		} else if (!strcmp(op, "addch")) {
			strbuf_addch(&sb, arg[0]);
			i++;
		} else if (!strcmp(op, "addf")) {
			strbuf_addf(&sb, "<%s|%d>", arg, (int)strlen(arg));
			i++;
		} else if (!strcmp(op, "setlen")) {
			strbuf_setlen(&sb, (size_t)strtoul(arg, NULL, 10));
			i++;
		} else if (!strcmp(op, "read")) {
			if (strbuf_read_file(&sb, arg) < 0)
				printf("read: %s\n", strerror(errno));
			i++;
		} else if (!strcmp(op, "reset")) {
			strbuf_reset(&sb);
		} else if (!strcmp(op, "oom")) {
			/* More than memory can hold: fails without allocating. */
			printf("grow: %d\n", strbuf_grow(&sb, SIZE_MAX));
		} else if (!strcmp(op, "detach")) {
			char *s = strbuf_detach(&sb);

			printf("detached: %s\n", s ? s : "(null)");
			free(s);
			ret = show_strbuf(&sb);
		} else if (!strcmp(op, "show")) {
			ret = show_strbuf(&sb);
		} else {
			fprintf(stderr, "unknown strbuf operation %s\n", op);
			ret = 129;
		}
	}
	strbuf_release(&sb);
	return ret;
}

/*
 * Grow an array of size_t one element at a time to `nr`, printing each
 * new allocation; then ask for room for `then` elements (more than
 * memory can hold must fail and keep the array) and check that every
 * element kept its value.
 */
static int alloc_grow(const char *nr_text, const char *then_text)
{
	size_t *array = NULL, alloc = 0, nr = 0, i, want = (size_t)strtoull(nr_text, NULL, 10);
	size_t then = then_text ? (size_t)strtoull(then_text, NULL, 10) : 0;
	int ret = 0;

	for (; nr < want; nr++) {
		size_t was = alloc;

		if (ALLOC_GROW(array, nr + 1, alloc) < 0) {
			printf("error: %s\n", rolling_last_error());
			free(array);
			return 1;
		}
		if (alloc != was)
			printf("nr %zu alloc %zu\n", nr + 1, alloc);
		array[nr] = nr * 7;
	}
	if (then && ALLOC_GROW(array, then, alloc) < 0)
		printf("error: %s; alloc %zu\n", rolling_last_error(), alloc);
	for (i = 0; i < nr; i++)
		if (array[i] != i * 7) {
			printf("element %zu lost its value\n", i);
			ret = 1;
		}
	free(array);
	return ret;
}

/*
 * The fetch plan, step by step: the fetch itself, into a quarantine
 * that is removed at the end (nothing reaches the repository), then
 *
 *	tip <oid> <ref>      each branch's tip, as the fetch found it
 *	tag <oid> <ref>      each tag the fetch followed that the repository lacks
 *	need <tag> <oid>     a release tag the new steps need, as the walk met it
 *
 * A step that fails prints "error: <message>" and ends it (exit 1):
 * the library returned where the command would die.
 */
static int fetch_plan(int argc, char **argv)
{
	struct rolling_scheme_options scheme = { 0 };
	struct rolling_fetch_plan p;
	struct rolling_quarantine q = ROLLING_QUARANTINE_INIT;
	git_repository *repo = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int signatures = -1, ret = 1;
	size_t i;

	if (argc && !strcmp(argv[0], "--signatures"))
		signatures = 1;
	else if (argc && !strcmp(argv[0], "--no-signatures"))
		signatures = 0;
	if (signatures >= 0) {
		argc--;
		argv++;
	}
	if (!argc) {
		fprintf(stderr, "usage: test-rolling fetch-plan [--[no-]signatures] <remote> [<branch>...]\n");
		return 129;
	}
	memset(&p, 0, sizeof(p));
	if (rolling_setup() < 0 || rolling_repo_open(&repo) < 0 ||
	    rolling_fetch_plan_init(&p, repo, argv[0], (const char *const *)argv + 1,
				    (size_t)argc - 1, signatures, &scheme) < 0 ||
	    rolling_quarantine_create(&q, repo) < 0 || rolling_quarantine_add_to(&q, repo) < 0 ||
	    rolling_fetch_plan_read(&p) < 0 || rolling_fetch_plan_fetch(&p, &q, 0) < 0)
		goto out;
	for (i = 0; i < p.nr; i++)
		printf("tip %s %s\n", git_oid_tostr(hex, sizeof(hex), &p.branches[i].tip),
		       p.branches[i].remote_ref);
	for (i = 0; i < p.advertised.nr; i++)
		if (!strncmp(p.advertised.refs[i].name, "refs/tags/", 10))
			printf("tag %s %s\n", git_oid_tostr(hex, sizeof(hex), &p.advertised.refs[i].oid),
			       p.advertised.refs[i].name);
	if (rolling_fetch_plan_needed_tags(&p) < 0)
		goto out;
	for (i = 0; i < p.needed_nr; i++)
		printf("need %s %s\n", p.needed[i].name,
		       git_oid_tostr(hex, sizeof(hex), &p.needed[i].target));
	ret = 0;
out:
	if (ret)
		printf("error: %s\n", rolling_last_error());
	rolling_fetch_plan_release(&p);
	rolling_quarantine_destroy(&q);
	rolling_repo_free(repo);
	rolling_teardown();
	return ret;
}

static int open_here(git_repository **repo)
{
	if (rolling_setup() < 0 || rolling_repo_open(repo) < 0) {
		printf("error: %s\n", rolling_last_error());
		return -1;
	}
	return 0;
}

/* The listing of `test-rolling refs` from `repo`; 0, or 1 after an error line. */
static int print_refs(git_repository *repo)
{
	char hex[GIT_OID_HEXSZ + 1], peel[GIT_OID_HEXSZ + 1];
	git_reference_iterator *iter;
	git_reference *ref, *resolved;
	int err;

	if ((err = git_reference_iterator_new(&iter, repo)) < 0) {
		printf("error: %s\n", rolling_git_error_message());
		return 1;
	}
	while (!(err = git_reference_next(&ref, iter))) {
		int symbolic = git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC;
		const git_oid *p;

		/* A direct ref as listed, not as a lookup of its name finds it. */
		resolved = NULL;
		if (symbolic && git_reference_resolve(&resolved, ref) < 0) {
			git_error_clear();
			git_reference_free(ref);
			continue;    /* dangling: git lists none either */
		}
		/* git names and peels the last ref a symbolic ref resolves to. */
		p = git_reference_target_peel(symbolic ? resolved : ref);
		printf("%s %s %s %s\n",
		       git_oid_tostr(hex, sizeof(hex), git_reference_target(symbolic ? resolved : ref)),
		       p ? git_oid_tostr(peel, sizeof(peel), p) : "", git_reference_name(ref),
		       symbolic ? git_reference_name(resolved) : "");
		git_reference_free(resolved);
		git_reference_free(ref);
	}
	git_reference_iterator_free(iter);
	if (err != GIT_ITEROVER) {
		printf("error: %s\n", rolling_git_error_message());
		return 1;
	}
	return 0;
}

static int list_refs(void)
{
	git_repository *repo;
	int ret;

	if (open_here(&repo) < 0)
		return 1;
	ret = print_refs(repo);
	rolling_repo_free(repo);
	rolling_teardown();
	return ret;
}

/* The lines of `test-rolling ref` for each of the n names, from `repo`. */
static void print_ref_lines(git_repository *repo, int n, char **names)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_reference *ref;
	int i;

	for (i = 0; i < n; i++) {
		if (git_reference_lookup(&ref, repo, names[i]) < 0) {
			printf("%s missing\n", names[i]);
			git_error_clear();
			continue;
		}
		if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
			printf("%s -> %s\n", names[i], git_reference_symbolic_target(ref));
		else
			printf("%s %s\n", names[i],
			       git_oid_tostr(hex, sizeof(hex), git_reference_target(ref)));
		git_reference_free(ref);
	}
}

static int show_refs(int argc, char **argv)
{
	git_repository *repo;

	if (open_here(&repo) < 0)
		return 1;
	print_ref_lines(repo, argc, argv);
	rolling_repo_free(repo);
	rolling_teardown();
	return 0;
}

/* sh -c `command`, its output on our stderr: its exit status, or -1. */
static int run_between(const char *command)
{
	int status;
	pid_t pid;

	fflush(stdout);
	if ((pid = fork()) < 0)
		return -1;
	if (!pid) {
		if (dup2(2, 1) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The names and the listing, then `command`, then both again, all read
 * through one open repository, as a command of git rolling reads a ref,
 * runs git, and reads it again: what the library kept of the first
 * reading must not be its answer after the command changed the refs.
 */
static int reread(const char *command, int n, char **names)
{
	git_repository *repo;
	int ret, status;

	if (open_here(&repo) < 0)
		return 1;
	printf("before\n");
	print_ref_lines(repo, n, names);
	ret = print_refs(repo);
	status = run_between(command);
	printf("after: exit %d\n", status);
	print_ref_lines(repo, n, names);
	ret |= print_refs(repo);
	rolling_repo_free(repo);
	rolling_teardown();
	return ret || status < 0;
}

static int work_tree(void)
{
	git_repository *repo;
	const char *workdir;
	char *real = NULL;

	if (open_here(&repo) < 0)
		return 1;
	workdir = git_repository_workdir(repo);
	if (workdir && !(real = realpath(workdir, NULL)))
		printf("error: %s: %s\n", workdir, strerror(errno));
	else
		printf("%s\n", real ? real : rolling_repo_is_bare(repo) ? "bare" : "none");
	free(real);
	rolling_repo_free(repo);
	rolling_teardown();
	return workdir && !real;
}

/* extensions.refStorage in the repository's own config file, as `git config` sets it. */
static int set_ref_format(git_repository *repo, const char *format)
{
	git_config *config = NULL, *local = NULL;
	int err;

	if ((err = git_repository_config(&config, repo)) < 0 ||
	    (err = git_config_open_level(&local, config, GIT_CONFIG_LEVEL_LOCAL)) < 0 ||
	    (err = git_config_set_string(local, "extensions.refStorage", format)) < 0)
		err = rolling_git_error(err, "cannot set extensions.refStorage");
	git_config_free(local);
	git_config_free(config);
	return err;
}

/* One "<verb> <ref> <oid>..." line of ref_tx() as an update; 0, or -1 when it is not one. */
static int parse_update(struct rolling_ref_update *u, char **name, char *line)
{
	char *verb = strtok(line, " \n"), *ref = strtok(NULL, " \n");
	char *a = strtok(NULL, " \n"), *b = strtok(NULL, " \n");

	memset(u, 0, sizeof(*u));
	if (!verb || !ref || !a || !(*name = strdup(ref)))
		return -1;
	u->refname = *name;
	rolling_git_oid_zero(&u->new_oid);
	if (!strcmp(verb, "create") && !b)
		return git_oid_fromstr(&u->new_oid, a);
	if (!strcmp(verb, "delete") && !b) {
		u->had_old = 1;
		return git_oid_fromstr(&u->old_oid, a);
	}
	if (!strcmp(verb, "update") && b) {
		u->had_old = 1;
		return git_oid_fromstr(&u->new_oid, a) < 0 ? -1 : git_oid_fromstr(&u->old_oid, b);
	}
	return -1;
}

static int ref_tx(int argc, char **argv)
{
	struct rolling_ref_update *u = NULL;
	char **names = NULL;
	struct rolling_ref_transaction *tx = NULL;
	const char *message = NULL, *format = NULL;
	git_repository *repo = NULL;
	size_t nr = 0, alloc = 0, i;
	int create_reflog = 0, abort_it = 0, err = 0;
	char line[1024];

	for (; argc; argc--, argv++) {
		if (argc >= 2 && !strcmp(argv[0], "-m"))
			message = *++argv, argc--;
		else if (!strcmp(argv[0], "--create-reflog"))
			create_reflog = 1;
		else if (!strcmp(argv[0], "--abort"))
			abort_it = 1;
		else if (argc >= 2 && !strcmp(argv[0], "--set-ref-format"))
			format = *++argv, argc--;
		else
			break;
	}
	if (argc) {
		fprintf(stderr, "usage: test-rolling ref-tx [-m <message>] [--create-reflog]"
			" [--set-ref-format <format>] [--abort] <updates\n");
		return 129;
	}
	while (!err && fgets(line, sizeof(line), stdin) && strcmp(line, "\n")) {
		if (ALLOC_GROW(u, nr + 1, alloc) < 0 ||
		    !(names = reallocarray(names, alloc, sizeof(*names))))
			err = -1;
		else if ((names[nr] = NULL, parse_update(&u[nr], &names[nr], line)) < 0) {
			free(names[nr]);
			err = rolling_error("not an update: %s", line);
		}
		else {
			u[nr].message = message;
			u[nr++].create_reflog = create_reflog;
		}
	}
	if (!err)
		err = open_here(&repo) < 0 ? 1 : 0;
	if (!err && format)
		err = set_ref_format(repo, format);
	if (!err)
		err = rolling_ref_transaction_begin(&tx, repo);
	for (i = 0; !err && i < nr; i++)
		err = rolling_ref_transaction_add(tx, &u[i]);
	if (!err && abort_it && !(err = rolling_ref_transaction_prepare(tx))) {
		/* the caller looks at the repository meanwhile */
		printf("prepared\n");
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			line[0] = '\0';
	} else if (!err) {
		err = rolling_ref_transaction_commit(tx);
	}
	rolling_ref_transaction_free(tx);
	if (!err && abort_it) {
		/* the caller looks again before this process ends and its tempfiles go */
		printf("aborted\n");
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			line[0] = '\0';
	}
	if (err < 0)
		printf("error: %s\n", rolling_last_error());
	else if (!err)
		printf("ok\n");
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(u);
	rolling_repo_free(repo);
	rolling_teardown();
	return err ? 1 : 0;
}

/* What lib/git2-compat.h decided of the libgit2 it was compiled against. */
static int libgit2_features(void)
{
	printf("reads-reftable %d\n", ROLLING_LIBGIT2_READS_REFTABLE);
	return 0;
}

/* What lib/commit-header.c reads of the raw commit on stdin. */
static int commit_header(void)
{
	struct rolling_parent_pool pool = { 0 };
	struct strbuf raw = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], chunk[4096];
	unsigned parents, i;
	git_time_t time;
	size_t n;
	int err;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		strbuf_add(&raw, chunk, n);
	err = rolling_commit_header_read(&pool, &parents, &time, raw.buf, raw.len);
	if (err < 0) {
		printf("error: %s\n", rolling_last_error());
	} else {
		for (i = 0; i < parents; i++)
			printf("parent %s\n", git_oid_tostr(hex, sizeof(hex), &pool.oids[i]));
		printf("time %lld\n", (long long)time);
	}
	free(pool.oids);
	strbuf_release(&raw);
	return err < 0;
}

/* One <what> of tempfiles(): 0, or -1 with errno. */
static int register_one(struct rolling_tempfile *t, const char *what, const char **dir)
{
	char *path;
	int err;

	if (!strncmp(what, "dir:", 4) || !strncmp(what, "scratch:", 8)) {
		int scratch = *what == 's';

		if (!(path = strdup(strchr(what, ':') + 1)))
			return -1;
		if (!(err = scratch ? rolling_tempfile_scratch_dir(t, path) :
				      rolling_tempfile_mkdtemp(t, path))) {
			printf("%s\n", path);
			*dir = rolling_tempfile_path(t);
		}
	} else if (!strncmp(what, "unique:", 7)) {
		if (!(path = strdup(what + 7)))
			return -1;
		if (!(err = rolling_tempfile_mkstemp(t, path)))
			printf("%s\n", path);
	} else if (!strncmp(what, "in:", 3)) {
		if (!*dir || !(path = rolling_path_join(*dir, what + 3)))
			return -1;
		err = rolling_tempfile_create(t, path, 0, 0666);
	} else if (!strncmp(what, "keep:", 5) || !strncmp(what, "last:", 5)) {
		if (!(path = strdup(what + 5)))
			return -1;
		err = rolling_tempfile_create(t, path, *what == 'l' ? ROLLING_TEMPFILE_LAST : 0,
					      0666);
		if (!err && *what == 'k')
			rolling_tempfile_keep(t);
	} else {
		if (!(path = strdup(what)))
			return -1;
		err = rolling_tempfile_create(t, path, 0, 0666);
	}
	free(path);
	return err;
}

/*
 * The registry of tempfile.h, each <what> in turn:
 *
 *	<path>           a temporary file
 *	keep:<path>      one kept at the end (a record for the next run)
 *	last:<path>      one removed after the others
 *	unique:<template>  a temporary file made as mkstemp() makes it (its name printed)
 *	dir:<template>   a directory, made as mkdtemp() makes it (its name printed)
 *	scratch:<template>  the same, a scratch directory (removed with what it holds)
 *	in:<name>        a temporary file in the last directory
 *	fork-exit        a forked child exits (running what exit() runs) at once
 *	hold             the fatal signals held while waiting
 */
static int tempfiles(int argc, char **argv)
{
	struct rolling_tempfile *t = calloc(argc ? argc : 1, sizeof(*t));
	const char *dir = NULL;
	char line[64];
	int i, hold = 0;
	pid_t pid;

	for (i = 0; t && i < argc; i++) {
		if (!strcmp(argv[i], "hold")) {
			hold = 1;
		} else if (!strcmp(argv[i], "fork-exit")) {
			if (!(pid = fork()))
				exit(0);
			if (pid < 0 || waitpid(pid, NULL, 0) < 0)
				break;
		} else if (register_one(&t[i], argv[i], &dir) < 0) {
			break;
		}
	}
	if (!t || i < argc) {
		fprintf(stderr, "%s: %s\n", t ? argv[i] : "tempfile", strerror(errno));
		free(t);
		return 1;
	}
	/* The handles go; the files stay registered. */
	free(t);
	if (hold)
		rolling_tempfile_hold_signals();
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		line[0] = '\0';
	if (hold)
		rolling_tempfile_release_signals();
	printf("done\n");
	return 0;
}

/* A lock of lockfile.h taken, written, committed or rolled back; the error printed. */
static int lock_file(const char *path, const char *timeout_ms, const char *end,
		     const char *content)
{
	struct rolling_lock lk;
	int fd;

	if (rolling_lock_acquire(&lk, path, strtol(timeout_ms, NULL, 10)) < 0) {
		fprintf(stderr, "%s\n", rolling_last_error());
		return 1;
	}
	fd = rolling_lock_fd(&lk);
	if (rolling_write_all(fd, content, strlen(content)) < 0 || rolling_write_all(fd, "\n", 1) < 0 ||
	    (!strcmp(end, "commit") && rolling_lock_commit(&lk) < 0)) {
		fprintf(stderr, "%s: %s\n", rolling_lock_path(&lk), strerror(errno));
		rolling_lock_rollback(&lk);
		return 1;
	}
	rolling_lock_rollback(&lk);
	return 0;
}

/* Write what a child printed into `path`, byte for byte. */
static int save_capture(const char *path, const struct strbuf *sb)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(sb->buf, 1, sb->len, f) != sb->len || fclose(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* --out discard|to-stderr, --err discard|to-stdout: 1, or 0 for another value. */
static int redirection(struct rolling_child *git, const char *opt, const char *arg)
{
	static const struct {
		const char *opt, *arg;
		enum rolling_child_out out;
		enum rolling_child_err err;
	} ways[] = {
		{ "--out", "discard", ROLLING_CHILD_DISCARD, ROLLING_CHILD_ERR_INHERIT },
		{ "--out", "to-stderr", ROLLING_CHILD_TO_STDERR, ROLLING_CHILD_ERR_INHERIT },
		{ "--err", "discard", ROLLING_CHILD_INHERIT, ROLLING_CHILD_ERR_DISCARD },
		{ "--err", "to-stdout", ROLLING_CHILD_INHERIT, ROLLING_CHILD_ERR_TO_STDOUT },
	};
	size_t i;

	for (i = 0; i < sizeof(ways) / sizeof(ways[0]); i++)
		if (!strcmp(opt, ways[i].opt) && !strcmp(arg, ways[i].arg)) {
			if (opt[2] == 'o')
				git->out = ways[i].out;
			else
				git->err = ways[i].err;
			return 1;
		}
	return 0;
}

/*
 * One run of struct rolling_child, the options filling it in:
 *   --env NAME=value | --env NAME   (set, or remove, for git alone)
 *   --input <bytes> | --stdin-file <path>
 *   --out capture=<file>|discard|to-stderr   (default: ours)
 *   --err capture=<file>|discard|to-stdout
 *   --inherit <path>   (opened close-on-exec as descriptor 9, handed on)
 *   --abandon          (start it, then abandon it, instead of run)
 *   --program <name>   (run it instead of git)
 * then "--" and git's arguments.  Says "status <n>" (negative when git
 * could not be run, the error on stderr); the captures go to their files.
 */
static int child(int argc, char **argv)
{
	struct rolling_child git = ROLLING_CHILD_INIT;
	const char *out_file = NULL, *err_file = NULL;
	int i, status, abandon = 0, known = 1, fd;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(opt, "--abandon")) {
			abandon = 1;
			continue;
		}
		i++;
		if (!strcmp(opt, "--env") && strchr(arg, '='))
			rolling_strvec_push(&git.env, arg);
		else if (!strcmp(opt, "--env"))
			rolling_env_push(&git.env, arg, NULL);
		else if (!strcmp(opt, "--input"))
			git.input = arg, git.input_len = strlen(arg);
		else if (!strcmp(opt, "--stdin-file"))
			git.stdin_path = arg;
		else if (!strcmp(opt, "--program"))
			git.program = arg;
		else if (!strcmp(opt, "--out") && !strncmp(arg, "capture=", 8))
			git.out = ROLLING_CHILD_CAPTURE, out_file = arg + 8;
		else if (!strcmp(opt, "--err") && !strncmp(arg, "capture=", 8))
			git.err = ROLLING_CHILD_ERR_CAPTURE, err_file = arg + 8;
		else if (!strcmp(opt, "--out") || !strcmp(opt, "--err"))
			known = redirection(&git, opt, arg);
		else if (!strcmp(opt, "--inherit") && (fd = open(arg, O_RDONLY | O_CLOEXEC)) >= 0 &&
			 dup3(fd, 9, O_CLOEXEC) == 9)
			git.inherit_fd = 9;
		else
			break;
		if (!known)
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: test-rolling child <option>... -- <git args>...\n");
		return 129;
	}
	rolling_strvec_pushv(&git.args, (const char *const *)argv + i + 1);
	if (abandon) {
		if ((status = rolling_child_start(&git)) >= 0)
			rolling_child_abandon(&git);
	} else {
		status = rolling_child_run(&git);
	}
	if (status < 0)
		fprintf(stderr, "error: %s\n", rolling_last_error());
	else if ((out_file && save_capture(out_file, &git.captured) < 0) ||
		 (err_file && save_capture(err_file, &git.said) < 0))
		status = -1;
	rolling_child_release(&git);
	printf("status %d\n", status);
	return status < 0;
}

int main(int argc, char **argv)
{
	const struct rolling_preset *preset;

	if (argc >= 3 && !strcmp(argv[1], "classify")) {
		if (!(preset = rolling_preset_find(argv[2]))) {
			fprintf(stderr, "unknown preset %s\n", argv[2]);
			return 1;
		}
		return classify(preset->release_pattern, preset->mainline_pattern,
				argc - 3, argv + 3);
	}
	if (argc >= 4 && !strcmp(argv[1], "classify-re"))
		return classify(argv[2], argv[3], argc - 4, argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "series"))
		return series(argv[2], argc - 3, argv + 3);
	if (argc >= 2 && !strcmp(argv[1], "strbuf"))
		return strbuf_ops(argc - 2, argv + 2);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "alloc-grow"))
		return alloc_grow(argv[2], argv[3]);
	if (argc >= 2 && !strcmp(argv[1], "fetch-plan"))
		return fetch_plan(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "refs"))
		return list_refs();
	if (argc >= 3 && !strcmp(argv[1], "ref"))
		return show_refs(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "reread"))
		return reread(argv[2], argc - 3, argv + 3);
	if (argc == 2 && !strcmp(argv[1], "work-tree"))
		return work_tree();
	if (argc == 2 && !strcmp(argv[1], "commit-header"))
		return commit_header();
	if (argc == 2 && !strcmp(argv[1], "libgit2"))
		return libgit2_features();
	if (argc >= 2 && !strcmp(argv[1], "tempfile"))
		return tempfiles(argc - 2, argv + 2);
	if (argc == 6 && !strcmp(argv[1], "lock"))
		return lock_file(argv[2], argv[3], argv[4], argv[5]);
	if (argc >= 2 && !strcmp(argv[1], "child"))
		return child(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "ref-tx"))
		return ref_tx(argc - 2, argv + 2);
	fprintf(stderr, "usage: test-rolling (classify <preset> | classify-re <re> <re> |"
		" series <forms> | strbuf <op>... | alloc-grow <nr> [<then>] |"
		" fetch-plan [--[no-]signatures] <remote> [<branch>...] | refs | ref <name>... |"
		" reread <command> [<name>...] |"
		" work-tree | commit-header | libgit2 | tempfile <what>... |"
		" lock <path> <timeout-ms> commit|rollback <content> |"
		" child <option>... -- <git args>... |"
		" ref-tx [-m <message>] [--create-reflog] [--set-ref-format <format>] [--abort])\n");
	return 129;
}
