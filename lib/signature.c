#include <errno.h>
#include <stdio.h>
#include <strings.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <git2/sys/odb_backend.h>
#include "signature.h"
#include "oidmap.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "error.h"
#include "fd-io.h"
#include "tempfile.h"
#include "git2-compat.h"

/*
 * Tags verified per git process: few processes for a long history, and a
 * batch that git fails as a whole (see run_verify_tag()) costs at most
 * this many checks one by one.
 */
#define BATCH 48

/* The armour lines git recognises at the start of a line in a tag (gpg-interface.c). */
static const char *const signature_starts[] = {
	"-----BEGIN PGP SIGNATURE-----",
	"-----BEGIN PGP MESSAGE-----",
	"-----BEGIN SIGNED MESSAGE-----",
	"-----BEGIN SSH SIGNATURE-----",
};

const char *rolling_signature_status_name(enum rolling_signature_status status)
{
	switch (status) {
	case ROLLING_SIGNATURE_GOOD:
		return "good";
	case ROLLING_SIGNATURE_LIGHTWEIGHT:
		return "lightweight tag";
	case ROLLING_SIGNATURE_UNSIGNED:
		return "unsigned tag";
	case ROLLING_SIGNATURE_NO_KEY:
		return "no public key";
	case ROLLING_SIGNATURE_BAD:
		break;
	}
	return "bad signature";
}

size_t rolling_signature_armour(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(signature_starts) / sizeof(signature_starts[0]); i++) {
		size_t n = strlen(signature_starts[i]);

		if (len >= n && !memcmp(line, signature_starts[i], n))
			return n;
	}
	return 0;
}

int rolling_buffer_has_signature(const char *data, size_t size)
{
	const char *line = data, *end = data + size;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));

		if (rolling_signature_armour(line, (size_t)(end - line)))
			return 1;
		line = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * Run `git verify-tag --format=%(objectname) <ids>` and collect what it
 * prints: it prints the format only for tags whose signature is good.
 * Its stderr (gpg's chatter) is dropped; the report says what failed.
 * Returns 0, 1 when git failed on the batch, or a negative error.
 */
static int run_verify_tag(char **output, git_repository *repo, const char *const *env,
			  char hex[][GIT_OID_HEXSZ + 1], size_t nr)
{
	const char *args[BATCH + 6] = { "--no-replace-objects", "--git-dir",
					git_repository_path(repo), "verify-tag",
					"--format=%(objectname)" };
	struct rolling_child git = ROLLING_CHILD_INIT;
	size_t fixed = 5, i;
	int status;

	for (i = 0; i < nr; i++)
		args[fixed + i] = hex[i];
	args[fixed + nr] = NULL;
	rolling_strvec_pushv(&git.args, args);
	rolling_strvec_pushv(&git.env, env);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	status = rolling_child_run(&git);
	if (status >= 0 && !(*output = strbuf_detach(&git.captured)))
		status = rolling_error_nomem();
	rolling_child_release(&git);
	if (status < 0)
		return status;
	/*
	 * 1 means "some signature is bad".  Anything else means git itself
	 * failed or died: git 2.39 dies of SIGPIPE when ssh-keygen rejects a
	 * malformed signature before reading the payload.  Then nothing it
	 * printed counts, and each tag is asked about alone (why_not_good()).
	 */
	if (status > 1) {
		free(*output);
		*output = NULL;
		return 1;
	}
	return 0;
}

/*
 * What git and gpg (--raw status lines) say when only the key is missing.
 * ssh-keygen says "No principal matched." both for a good signature by a
 * key the allowed signers do not list and for a signature it cannot
 * parse; git's fallback check then says "Good ... signature with" only
 * for the former, so both lines must be there.
 */
static const char *const no_key_says[] = {
	"[GNUPG:] NO_PUBKEY ",
	"gpg.ssh.allowedSignersFile needs to be configured",
};
#define SSH_NO_PRINCIPAL "No principal matched."
#define SSH_VALID_SIGNATURE "Good \"git\" signature with "

static int only_key_missing(const char *output)
{
	size_t i;

	for (i = 0; i < sizeof(no_key_says) / sizeof(no_key_says[0]); i++)
		if (strstr(output, no_key_says[i]))
			return 1;
	return strstr(output, SSH_NO_PRINCIPAL) && strstr(output, SSH_VALID_SIGNATURE);
}

/* A signature git did not accept: is only its key missing? */
static int why_not_good(enum rolling_signature_status *status, git_repository *repo,
			const char *const *env, const char *hex)
{
	const char *args[] = { "--no-replace-objects", "--git-dir", git_repository_path(repo),
			       "verify-tag", "--raw", hex, NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	const char *output;
	int err;

	rolling_strvec_pushv(&git.args, args);
	rolling_strvec_pushv(&git.env, env);
	git.out = ROLLING_CHILD_CAPTURE;
	git.err = ROLLING_CHILD_ERR_TO_STDOUT;
	err = rolling_child_run(&git);
	output = git.captured.buf;
	/* Good alone: the batch it was in failed as a whole (run_verify_tag()). */
	if (err >= 0)
		*status = !err ? ROLLING_SIGNATURE_GOOD :
			  err == 1 && only_key_missing(output) ? ROLLING_SIGNATURE_NO_KEY :
			  ROLLING_SIGNATURE_BAD;
	rolling_child_release(&git);
	return err < 0 ? err : 0;
}

/* The tag ids git printed: those with a good signature. */
static int read_good(struct rolling_oidmap *good, const char *output)
{
	const char *line = output;

	while (*line) {
		size_t len = strcspn(line, "\n");
		git_oid id;

		if (len == GIT_OID_HEXSZ && !git_oid_fromstrn(&id, line, len) &&
		    rolling_oidmap_put(good, &id, 0) < 0)
			return ROLLING_ERROR;
		line += len + (line[len] == '\n');
	}
	return 0;
}

/* Several names may share one tag object: each gets the object's verdict. */
static int verify_batch(enum rolling_signature_status *status, git_repository *repo,
			const char *const *env, char hex[][GIT_OID_HEXSZ + 1], const size_t *index,
			size_t nr)
{
	struct rolling_oidmap good = { NULL, 0, 0 };
	char *output = NULL;
	size_t i, unused;
	int err;

	if (!(err = run_verify_tag(&output, repo, env, hex, nr)))
		err = read_good(&good, output);
	else if (err > 0)
		err = 0;    /* none is known good: each is asked about alone */
	for (i = 0; i < nr && !err; i++) {
		git_oid id;

		git_oid_fromstr(&id, hex[i]);
		if (rolling_oidmap_get(&good, &id, &unused))
			status[index[i]] = ROLLING_SIGNATURE_GOOD;
		else
			err = why_not_good(&status[index[i]], repo, env, hex[i]);
	}
	free(output);
	rolling_oidmap_release(&good);
	return err;
}

/* --- tag objects by id, some of them embedded in merges -------------------- */

static const struct rolling_tag_bytes *find_extra(const struct rolling_tag_bytes *extra,
						  size_t extra_nr, const git_oid *id)
{
	size_t i;

	for (i = 0; i < extra_nr; i++)
		if (git_oid_equal(&extra[i].id, id))
			return &extra[i];
	return NULL;
}

/*
 * Classify one tag object without running anything.  Returns 1 when it
 * carries a signature that git must check.
 */
static int classify_id(enum rolling_signature_status *status, git_odb *odb, const git_oid *id,
		       const struct rolling_tag_bytes *extra, size_t extra_nr)
{
	const struct rolling_tag_bytes *bytes = find_extra(extra, extra_nr, id);
	git_odb_object *object = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	if (bytes) {
		*status = rolling_buffer_has_signature(bytes->data, bytes->size) ?
			ROLLING_SIGNATURE_BAD : ROLLING_SIGNATURE_UNSIGNED;
		return *status == ROLLING_SIGNATURE_BAD;
	}
	if ((err = git_odb_read(&object, odb, id)) < 0)
		return rolling_git_error(err, "cannot read tag %s",
					 git_oid_tostr(hex, sizeof(hex), id));
	if (git_odb_object_type(object) != GIT_OBJECT_TAG)
		*status = ROLLING_SIGNATURE_LIGHTWEIGHT;
	else if (!rolling_buffer_has_signature(git_odb_object_data(object),
					       git_odb_object_size(object)))
		*status = ROLLING_SIGNATURE_UNSIGNED;
	else
		*status = ROLLING_SIGNATURE_BAD;
	git_odb_object_free(object);
	return *status == ROLLING_SIGNATURE_BAD;
}

/*
 * A temporary object directory holding the embedded tags, for git to
 * read: a scratch directory of the registry, removed with the objects
 * in it when the run ends, however it ends.
 */
struct side_objects {
	struct rolling_tempfile dir;
	const struct rolling_tag_bytes *extra;
	size_t extra_nr;
};

static int write_side_objects(struct side_objects *side)
{
	const char *tmp = getenv("TMPDIR"), *dir;
	struct strbuf template = STRBUF_INIT;
	git_odb_backend *backend = NULL;
	git_odb *odb = NULL;
	size_t i;
	int err;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	strbuf_addf(&template, "%s/git-rolling-tags.XXXXXX", tmp);
	err = strbuf_oom(&template) ? rolling_error_nomem() :
	      rolling_tempfile_scratch_dir(&side->dir, template.buf) < 0 ?
	      rolling_error("cannot create a temporary directory in %s: %s", tmp, strerror(errno)) :
	      0;
	strbuf_release(&template);
	if (err < 0)
		return err;
	dir = rolling_tempfile_path(&side->dir);
	if ((err = git_odb_new(&odb)) < 0 ||
	    (err = rolling_git_odb_backend_loose(&backend, dir)) < 0 ||
	    (err = git_odb_add_backend(odb, backend, 1)) < 0) {
		/* Until it is added, the backend is ours to free, not the odb's. */
		if (backend)
			backend->free(backend);
		git_odb_free(odb);
		return rolling_git_error(err, "cannot write to %s", dir);
	}
	for (i = 0; i < side->extra_nr && !err; i++) {
		git_oid written;

		err = git_odb_write(&written, odb, side->extra[i].data, side->extra[i].size,
				    GIT_OBJECT_TAG);
	}
	git_odb_free(odb);
	return err < 0 ? rolling_git_error(err, "cannot write to %s", dir) : 0;
}

/*
 * git's environment: GIT_ALTERNATE_OBJECT_DIRECTORIES names `first` (the
 * side objects) and `object_dirs` (a quarantine) before the alternates
 * the user set, if any; nothing is added when both are NULL.  Passed to
 * each git run, never set in our own environment.
 */
static int git_env(struct rolling_strvec *env, const char *first, const char *object_dirs)
{
	const char *user = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	const char *parts[] = { first, object_dirs, user };
	struct strbuf value = STRBUF_INIT;
	size_t i;
	int err;

	if (!first && !object_dirs)
		return 0;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i] && *parts[i])
			strbuf_addf(&value, "%s%s", value.len ? ":" : "", parts[i]);
	err = strbuf_oom(&value) ? rolling_error_nomem() :
	      rolling_env_push(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES", value.buf);
	strbuf_release(&value);
	return err;
}

static int verify_ids(enum rolling_signature_status *status, git_repository *repo,
		      const char *const *env, const git_oid *ids, size_t nr,
		      const struct rolling_tag_bytes *extra,
		      size_t extra_nr, char (*hex)[GIT_OID_HEXSZ + 1], size_t *index,
		      struct rolling_progress *progress)
{
	size_t i, batch = 0;
	git_odb *odb = NULL;
	int err;

	if ((err = git_repository_odb(&odb, repo)) < 0)
		return rolling_git_error(err, "cannot open the object database");
	for (i = 0; i < nr; i++) {
		if ((err = classify_id(&status[i], odb, &ids[i], extra, extra_nr)) < 0)
			goto out;
		if (!err)
			continue;
		git_oid_tostr(hex[batch], sizeof(hex[batch]), &ids[i]);
		index[batch++] = i;
		if (batch == BATCH) {
			if ((err = verify_batch(status, repo, env, hex, index, batch)) < 0)
				goto out;
			batch = 0;
		}
		rolling_progress_update(progress, i + 1 - batch);
	}
	err = batch ? verify_batch(status, repo, env, hex, index, batch) : 0;
	rolling_progress_update(progress, nr);
out:
	git_odb_free(odb);
	return err < 0 ? err : 0;
}

int rolling_tag_object_signatures(enum rolling_signature_status *status, git_repository *repo,
				  const git_oid *ids, size_t nr,
				  const struct rolling_tag_bytes *extra, size_t extra_nr,
				  const char *object_dirs, struct rolling_progress *progress)
{
	char hex[BATCH][GIT_OID_HEXSZ + 1];
	size_t index[BATCH];
	struct side_objects side = { ROLLING_TEMPFILE_INIT, extra, extra_nr };
	struct rolling_strvec env = ROLLING_STRVEC_INIT;
	static const char *const none[] = { NULL };
	int err;

	if ((extra_nr && (err = write_side_objects(&side)) < 0) ||
	    (err = git_env(&env, rolling_tempfile_path(&side.dir), object_dirs)) < 0)
		goto out;
	err = verify_ids(status, repo, env.v ? (const char *const *)env.v : none, ids, nr,
			 extra, extra_nr, hex, index, progress);
out:
	rolling_tempfile_delete(&side.dir);
	rolling_strvec_release(&env);
	return err;
}

/* --- commit signatures ------------------------------------------------------ */

/*
 * `git verify-commit <ids>`, without replace objects so that it checks
 * the commits we read: 0 when git accepts every signature, 1 when not
 * (or when git fails), negative when it cannot run.
 */
static int run_verify_commit(git_repository *repo, const char *const *env, const git_oid *ids,
			     size_t nr)
{
	const char *args[BATCH + 5] = { "--no-replace-objects", "--git-dir",
					git_repository_path(repo), "verify-commit" };
	char hex[BATCH][GIT_OID_HEXSZ + 1];
	struct rolling_child git = ROLLING_CHILD_INIT;
	size_t fixed = 4, i;
	int status;

	for (i = 0; i < nr; i++)
		args[fixed + i] = git_oid_tostr(hex[i], sizeof(hex[i]), &ids[i]);
	args[fixed + nr] = NULL;
	rolling_strvec_pushv(&git.args, args);
	rolling_strvec_pushv(&git.env, env);
	git.out = ROLLING_CHILD_DISCARD;
	git.err = ROLLING_CHILD_ERR_DISCARD;
	status = rolling_child_run(&git);
	rolling_child_release(&git);
	/* git failing or dying (SIGPIPE, as for tags) has accepted nothing either. */
	return status < 0 ? status : status != 0;
}

int rolling_commit_signatures(int *good, git_repository *repo, const git_oid *ids, size_t nr,
			      const char *object_dirs)
{
	struct rolling_strvec env_v = ROLLING_STRVEC_INIT;
	static const char *const none[] = { NULL };
	const char *const *env;
	size_t start, i;
	int err;

	if ((err = git_env(&env_v, NULL, object_dirs)) < 0)
		return err;
	env = env_v.v ? (const char *const *)env_v.v : none;
	for (start = 0; start < nr && !err; start += BATCH) {
		size_t n = nr - start < BATCH ? nr - start : BATCH;

		if ((err = run_verify_commit(repo, env, ids + start, n)) < 0)
			break;
		for (i = start; i < start + n; i++)
			good[i] = !err;
		for (i = start; err && i < start + n; i++) {
			int one = run_verify_commit(repo, env, &ids[i], 1);

			if (one < 0) {
				err = one;
				break;
			}
			good[i] = !one;
		}
		if (err > 0)
			err = 0;
	}
	rolling_strvec_release(&env_v);
	return err < 0 ? err : 0;
}

/* --- push certificates ------------------------------------------------------ */

/*
 * The gpg.* keys a certificate's check needs, as git reads them: one
 * `git config --get-regexp` (its includes, `git -c` and the last value
 * of a key winning, as for git), and for SSH's files one more with
 * `--type=path`.  NULL: not set.
 */
enum gpg_key {
	KEY_OPENPGP_PROGRAM,
	KEY_PROGRAM,
	KEY_X509_PROGRAM,
	KEY_SSH_PROGRAM,
	KEY_MIN_TRUST,
	KEY_ALLOWED_SIGNERS,
	KEY_REVOCATION,
	KEY_NR,
};

static const char *const gpg_key_names[KEY_NR] = {
	"gpg.openpgp.program", "gpg.program", "gpg.x509.program", "gpg.ssh.program",
	"gpg.mintrustlevel", "gpg.ssh.allowedsignersfile", "gpg.ssh.revocationfile",
};

struct gpg_settings {
	char *value[KEY_NR];
};

static void gpg_settings_release(struct gpg_settings *g)
{
	size_t i;

	for (i = 0; i < KEY_NR; i++)
		free(g->value[i]);
	memset(g, 0, sizeof(*g));
}

/* Read `git config -z ... --get-regexp <regex>` into the keys it names. */
static int read_gpg_keys(struct gpg_settings *g, git_repository *repo, const char *regex,
			 int path)
{
	const char *args[] = { "--git-dir", git_repository_path(repo), "config", "-z",
			       path ? "--type=path" : "--get-regexp",
			       path ? "--get-regexp" : regex, path ? regex : NULL, NULL };
	struct rolling_child git = ROLLING_CHILD_INIT;
	const char *entry, *out;
	size_t len;
	int status, err = 0;

	rolling_strvec_pushv(&git.args, args);
	git.out = ROLLING_CHILD_CAPTURE;
	if ((status = rolling_child_run(&git)) < 0) {
		rolling_child_release(&git);
		return status;
	}
	out = git.captured.buf;
	len = git.captured.len;
	/* 1: none set; anything else: git could not read its configuration. */
	if (status > 1)
		err = rolling_error("git config --get-regexp %s failed (exit status %d)", regex,
				    status);
	for (entry = out; !status && entry < out + len; entry += strlen(entry) + 1) {
		const char *nl = strchr(entry, '\n');
		size_t k, key_len = nl ? (size_t)(nl - entry) : strlen(entry);

		for (k = 0; k < KEY_NR; k++) {
			if (strlen(gpg_key_names[k]) != key_len ||
			    strncmp(entry, gpg_key_names[k], key_len))
				continue;
			free(g->value[k]);
			g->value[k] = NULL;
			if (nl && nl[1] && !(g->value[k] = strdup(nl + 1)))
				err = rolling_error_nomem();
		}
	}
	rolling_child_release(&git);
	return err;
}

static int read_gpg_settings(struct gpg_settings *g, git_repository *repo, int ssh)
{
	int err;

	memset(g, 0, sizeof(*g));
	if ((err = read_gpg_keys(g, repo, "^gpg\\.", 0)) < 0 || !ssh)
		return err;
	free(g->value[KEY_ALLOWED_SIGNERS]);
	free(g->value[KEY_REVOCATION]);
	g->value[KEY_ALLOWED_SIGNERS] = g->value[KEY_REVOCATION] = NULL;
	return read_gpg_keys(g, repo, "^gpg\\.ssh\\.(allowedsignersfile|revocationfile)$", 1);
}

/* The first of `keys` set, else `fallback`. */
static const char *program_of(const struct gpg_settings *g, enum gpg_key first,
			      enum gpg_key second, const char *fallback)
{
	return g->value[first] ? g->value[first] :
	       g->value[second] ? g->value[second] : fallback;
}

/*
 * A program's exit status 127 is the shell's and exec's "not found": a
 * program that cannot run (posix_spawnp() reports it itself, but a
 * wrapper such as valgrind's exits 127 instead) is an error, not a
 * verdict on the signature.
 */
/*
 * Run args[0] (found on PATH, as git runs gpg.program) with args[1...],
 * `input` on its standard input, its output in *out and, when err_text
 * is not NULL, its standard error in *err_text (else discarded): both
 * the caller's to free.  Its exit status, or a negative error.
 */
static int run_program(const char *const *args, const char *input, size_t input_len,
		       char **out, char **err_text)
{
	struct rolling_child child = ROLLING_CHILD_INIT;
	int status;

	*out = NULL;
	if (err_text)
		*err_text = NULL;
	child.program = args[0];
	rolling_strvec_pushv(&child.args, args + 1);
	child.input = input;
	child.input_len = input_len;
	child.out = ROLLING_CHILD_CAPTURE;
	child.err = err_text ? ROLLING_CHILD_ERR_CAPTURE : ROLLING_CHILD_ERR_DISCARD;
	status = rolling_child_run(&child);
	if (status >= 0 && (!(*out = strbuf_detach(&child.captured)) ||
			    (err_text && !(*err_text = strbuf_detach(&child.said)))))
		status = rolling_error_nomem();
	rolling_child_release(&child);
	return status;
}

static int ran(int status, const char *program)
{
	return status == 127 ? rolling_error("cannot run %s: exit status 127", program) : status;
}

/* The first line of `text`, copied, for a message. */
static char *first_line(const char *text, const char *fallback)
{
	const char *s = text && *text ? text : fallback;

	return strndup(s, strcspn(s, "\n"));
}

static int set_why(struct rolling_push_signer *s, enum rolling_signature_status status,
		   const char *why)
{
	s->status = status;
	free(s->why);
	if (!(s->why = strdup(why)))
		return rolling_error_nomem();
	return 0;
}

/* ssh-keygen -Y verify's "Good "git" signature for P with ED25519 key SHA256:x". */
static int ssh_good(struct rolling_push_signer *s, const char *principal, const char *said)
{
	const char *key = strstr(said, " key ");
	size_t len;

	if (!key)
		return set_why(s, ROLLING_SIGNATURE_BAD, "ssh-keygen did not name the key");
	key += 5;
	len = strcspn(key, " \n");
	s->status = ROLLING_SIGNATURE_GOOD;
	free(s->why);
	s->why = NULL;
	if (!(s->signer = strdup(principal)) || !(s->fingerprint = strndup(key, len)))
		return rolling_error_nomem();
	return 0;
}

static int verify_ssh(struct rolling_push_signer *s, git_repository *repo, const char *sigfile,
		      const char *payload, size_t payload_size)
{
	struct gpg_settings g;
	const char *program, *allowed, *revoked, *line;
	char *principals = NULL, *out = NULL, *err_text = NULL;
	int err;

	if ((err = read_gpg_settings(&g, repo, 1)) < 0)
		goto out;
	program = program_of(&g, KEY_SSH_PROGRAM, KEY_SSH_PROGRAM, "ssh-keygen");
	allowed = g.value[KEY_ALLOWED_SIGNERS];
	revoked = g.value[KEY_REVOCATION];
	if (!allowed) {
		err = set_why(s, ROLLING_SIGNATURE_NO_KEY,
			      "gpg.ssh.allowedSignersFile needs to be configured");
		goto out;
	}
	{
		const char *args[] = { program, "-Y", "find-principals", "-f", allowed, "-s",
				       sigfile, NULL };

		err = ran(run_program(args, NULL, 0, &principals, &err_text), program);
	}
	if (err < 0)
		goto out;
	if (err || !principals || !*principals) {
		char *why = first_line(err_text, "no principal matched");

		err = why ? set_why(s, ROLLING_SIGNATURE_NO_KEY, why) : rolling_error_nomem();
		free(why);
		goto out;
	}
	err = set_why(s, ROLLING_SIGNATURE_BAD, "ssh-keygen -Y verify failed");
	for (line = principals; !err && *line && s->status != ROLLING_SIGNATURE_GOOD;) {
		size_t len = strcspn(line, "\n");
		char *principal = strndup(line, len);
		const char *args[] = { program, "-Y", "verify", "-n", "git", "-f", allowed, "-I",
				       principal, "-s", sigfile, revoked ? "-r" : NULL, revoked,
				       NULL };

		line += len + (line[len] == '\n');
		if (!principal) {
			err = rolling_error_nomem();
			break;
		}
		free(out);
		free(err_text);
		out = err_text = NULL;
		err = ran(run_program(args, payload, payload_size, &out, &err_text), program);
		if (!err && out && !strncmp(out, "Good", 4))
			err = ssh_good(s, principal, out);
		else if (err >= 0) {
			char *why = first_line(err_text, "ssh-keygen -Y verify failed");

			err = why ? set_why(s, ROLLING_SIGNATURE_BAD, why) : rolling_error_nomem();
			free(why);
		}
		free(principal);
	}
out:
	gpg_settings_release(&g);
	free(principals);
	free(out);
	free(err_text);
	return err;
}

/*
 * Field `n` (0: the keyword) of a gpg status line "[GNUPG:] KEYWORD f1 f2
 * ...", copied up to the first of `end`: " \n" for the field alone,
 * "\n" for the rest of the line (GOODSIG's user id).  NULL when the line
 * has fewer fields.
 */
static char *status_from(const char *line, int n, const char *end)
{
	const char *p = line + strlen("[GNUPG:] ");

	while (n--) {
		p += strcspn(p, " \n");
		if (*p != ' ')
			return NULL;
		p++;
	}
	return strndup(p, strcspn(p, end));
}

static char *status_field(const char *line, int n)
{
	return status_from(line, n, " \n");
}

static char *status_rest(const char *line, int n)
{
	return status_from(line, n, "\n");
}

static const char *const trust_levels[] = {
	"UNDEFINED", "NEVER", "MARGINAL", "FULLY", "ULTIMATE",
};

static int trust_level(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(trust_levels) / sizeof(trust_levels[0]); i++)
		if (strlen(trust_levels[i]) == len && !strncasecmp(name, trust_levels[i], len))
			return (int)i;
	return -1;
}

/* Read gpg's status lines as git's parse_gpg_output() does, for the verdict. */
static int read_gpg_status(struct rolling_push_signer *s, const char *out, int exit_status,
			   int min_trust)
{
	const char *line;
	int good = 0, bad = 0, no_key = 0, trust = -1;

	for (line = out; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		if (strncmp(line, "[GNUPG:] ", 9))
			continue;
		if (!strncmp(line + 9, "GOODSIG ", 8)) {
			good++;
			free(s->signer);
			s->signer = status_rest(line, 2);
		} else if (!strncmp(line + 9, "VALIDSIG ", 9)) {
			free(s->fingerprint);
			free(s->primary_fingerprint);
			s->fingerprint = status_field(line, 1);
			s->primary_fingerprint = status_field(line, 10);
		} else if (!strncmp(line + 9, "NO_PUBKEY ", 10)) {
			no_key = 1;
		} else if (!strncmp(line + 9, "TRUST_", 6)) {
			trust = trust_level(line + 15, strcspn(line + 15, " \n"));
		} else if (!strncmp(line + 9, "BADSIG ", 7) || !strncmp(line + 9, "ERRSIG ", 7) ||
			   !strncmp(line + 9, "EXPSIG ", 7) || !strncmp(line + 9, "EXPKEYSIG ", 10) ||
			   !strncmp(line + 9, "REVKEYSIG ", 10)) {
			bad = 1;
		}
	}
	if (no_key)
		return set_why(s, ROLLING_SIGNATURE_NO_KEY, "no public key");
	if (bad || good != 1 || exit_status || !s->fingerprint || !s->signer)
		return set_why(s, ROLLING_SIGNATURE_BAD, "bad signature");
	if (min_trust > 0 && trust < min_trust)
		return set_why(s, ROLLING_SIGNATURE_BAD, "key trusted below gpg.minTrustLevel");
	s->status = ROLLING_SIGNATURE_GOOD;
	free(s->why);
	s->why = NULL;
	return 0;
}

static int verify_gpg(struct rolling_push_signer *s, git_repository *repo, const char *sigfile,
		      const char *payload, size_t payload_size, int x509)
{
	struct gpg_settings g;
	const char *program, *min;
	char *out = NULL;
	int err, min_trust = 0;

	if ((err = read_gpg_settings(&g, repo, 0)) < 0)
		goto out;
	program = x509 ? program_of(&g, KEY_X509_PROGRAM, KEY_X509_PROGRAM, "gpgsm") :
		  program_of(&g, KEY_OPENPGP_PROGRAM, KEY_PROGRAM, "gpg");
	min = g.value[KEY_MIN_TRUST];
	if (min && (min_trust = trust_level(min, strlen(min))) < 0) {
		err = rolling_error("gpg.minTrustLevel: invalid value %s", min);
		goto out;
	}
	{
		const char *args[] = { program, "--status-fd=1", "--verify", sigfile, "-", NULL };

		err = ran(run_program(args, payload, payload_size, &out, NULL), program);
	}
	if (err >= 0)
		err = read_gpg_status(s, out ? out : "", err, min_trust);
out:
	gpg_settings_release(&g);
	free(out);
	return err;
}

int rolling_push_cert_signature(struct rolling_push_signer *s, git_repository *repo,
				const char *payload, size_t payload_size,
				const char *signature, size_t signature_size)
{
	const char *tmp = getenv("TMPDIR");
	struct rolling_tempfile file = ROLLING_TEMPFILE_INIT;
	char *path;
	int err;

	memset(s, 0, sizeof(*s));
	s->status = ROLLING_SIGNATURE_BAD;
	if (!(path = rolling_strfmt("%s/git-rolling-push-cert.XXXXXX", tmp && *tmp ? tmp : "/tmp")))
		return rolling_error_nomem();
	if (rolling_tempfile_mkstemp(&file, path) < 0) {
		err = rolling_error("cannot create %s: %s", path, strerror(errno));
		goto out;
	}
	if (rolling_write_all(file.fd, signature, signature_size) < 0 ||
	    rolling_tempfile_close(&file) < 0) {
		err = rolling_error("cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	if (rolling_signature_armour(signature, signature_size) &&
	    !strncmp(signature, "-----BEGIN SSH SIGNATURE-----", 29))
		err = verify_ssh(s, repo, path, payload, payload_size);
	else if (!strncmp(signature, "-----BEGIN SIGNED MESSAGE-----", 30))
		err = verify_gpg(s, repo, path, payload, payload_size, 1);
	else
		err = verify_gpg(s, repo, path, payload, payload_size, 0);
out:
	rolling_tempfile_delete(&file);
	free(path);
	return err;
}

void rolling_push_signer_release(struct rolling_push_signer *s)
{
	free(s->signer);
	free(s->fingerprint);
	free(s->primary_fingerprint);
	free(s->why);
	memset(s, 0, sizeof(*s));
}
