#ifndef ROLLING_PUSH_RECORD_H
#define ROLLING_PUSH_RECORD_H

#include <stddef.h>
#include <git2.h>

/*
 * One record of a push log: the RFC 822 message that kernel.org's
 * gitolite transparency log (and contrib/hooks/push-log) stores as the
 * blob `m` of each commit of a public-inbox v2 archive.  Its first part
 * is a YAML document:
 *
 *	---
 *	service: git-receive-pack
 *	repo: pub/scm/linux/kernel/git/stable/linux
 *	user: gregkh
 *	git_push_cert_status: G
 *	changes:
 *	  - ref: refs/heads/linux-rolling-stable
 *	    old: <40 hex>
 *	    new: <40 hex>
 *	    log: |
 *	         <id> <subject>      (or the name of an attachment)
 *
 * and a signed push attaches git's push certificate as
 * `git-push-certificate.txt`.
 *
 * The log is read from a clone of someone else's archive: every record
 * is hostile input.  The reader accepts the one narrow layout the
 * writers produce and refuses anything else with a message that says
 * what it refused, so that no two readings of one record can differ:
 *
 *  - MIME: a text/plain message, or a multipart/mixed one of text/plain
 *    parts (the first the YAML, the others attachments named by
 *    Content-Disposition's filename); transfer encodings other than
 *    7bit and 8bit (base64, quoted-printable) are refused rather than
 *    decoded, since no writer uses them and decoding is where readers
 *    disagree; a carriage return anywhere is refused (the archive
 *    stores LF line ends, and a CRLF record read as LF by one reader and
 *    as CRLF by another is two records); a boundary that never closes
 *    is a truncated record.  Not GMime: it would bring glib and a
 *    general MIME engine (nested parts, every encoding, header repair)
 *    for a format of two flat parts, and its leniency is what we must
 *    refuse.
 *  - YAML: libyaml's event parser, refusing anchors and aliases, tags,
 *    duplicate keys, tabs, more than one document, scalars longer than
 *    ROLLING_PUSH_RECORD_MAX_SCALAR and any type the format does not
 *    have at a key it knows.
 *  - Sizes: the caller caps the message (ROLLING_PUSH_RECORD_MAX_SIZE)
 *    before reading it; headers, parts and changes have their own caps.
 */

/* The largest record read; kernel.org attaches logs above 1 MiB. */
#define ROLLING_PUSH_RECORD_MAX_SIZE (32u << 20)
/* The largest YAML scalar: a `log:` held inline is below 1024 KiB. */
#define ROLLING_PUSH_RECORD_MAX_SCALAR ((1u << 20) + (64u << 10))
/* The most refs one push may record. */
#define ROLLING_PUSH_RECORD_MAX_CHANGES 100000

struct rolling_push_change {
	char *ref;
	git_oid old_id, new_id;
	char *log;         /* the `log:` text, or NULL */
};

struct rolling_push_attachment {
	char *name;
	const char *data;  /* points into the message given to the parser */
	size_t size;
};

struct rolling_push_record {
	char *service, *repo, *user;
	char *cert_status;           /* git_push_cert_status, or NULL when absent */
	/*
	 * git_push_cert_nonce_status, which contrib/hooks/push-log writes in
	 * place of git_push_cert_status when git did not find the nonce OK.
	 */
	char *nonce_status;
	char *date;                  /* the Date: header, or NULL */
	struct rolling_push_change *changes;
	size_t changes_nr, changes_alloc;
	struct rolling_push_attachment *attachments;
	size_t attachments_nr, attachments_alloc;
};

/*
 * Parse the message data[0..size-1] (which must outlive the record:
 * attachments point into it).  Returns 0, or ROLLING_ERROR with a
 * message that says what is wrong with it.  Release the record with
 * rolling_push_record_release(), also after an error.
 */
int rolling_push_record_parse(struct rolling_push_record *record, const char *data, size_t size);

/*
 * The same, for a reader that wants only the records of the repository
 * `repo` (its name without leading '/' or trailing ".git"): 1 is
 * returned (record->repo NULL), and nothing more is checked, when the
 * record cannot be that repository's.  It cannot when its bytes hold
 * neither the name nor a backslash: read as this reader reads it (no
 * transfer encoding decoded, a part in one is refused), a plain,
 * single-quoted or block YAML scalar spells its value with the value's
 * own bytes (folding only adds spaces and line ends, which no repository
 * name holds), and only a double-quoted scalar's escapes, which need a
 * backslash, spell it otherwise.  The same test is made again on the
 * YAML document alone once the MIME layout is read.
 *
 * Why: kernel.org's log records every push to every repository it
 * hosts.  A record of another repository is never used, so a malformed
 * one (a certificate some hook sent as base64, a subject with a CR) must
 * not stop every reader of every other repository; and parsing it is
 * what would make a log of 200,000 records, 1% of them for the followed
 * repository, cost more than reading it (p8000).  A record that names
 * the repository is read in full and refused when malformed.  A writer
 * that hid a record of the repository in an encoding would only have
 * left it out, which a log's writer can do anyway.
 */
int rolling_push_record_parse_for(struct rolling_push_record *record, const char *data,
				  size_t size, const char *repo);

/*
 * The test rolling_push_record_parse_for() makes before reading a
 * record, on any text: 0 when its bytes hold neither `repo` (non-empty)
 * nor a backslash, so that a record spelled with them cannot name it.
 */
int rolling_push_record_may_name(const char *text, size_t size, const char *repo);

/* The attachment called `name`, or NULL. */
const struct rolling_push_attachment *rolling_push_record_attachment(
	const struct rolling_push_record *record, const char *name);

void rolling_push_record_release(struct rolling_push_record *record);

/*
 * A push certificate as git writes it (send-pack.c): "certificate
 * version 0.1", the header lines pusher, pushee, nonce (and push-option),
 * a blank line, one "<old> <new> <ref>" line per ref, then the
 * signature.  `payload_size` bytes from the start are what was signed.
 */
struct rolling_push_cert_command {
	git_oid old_id, new_id;
	const char *ref;             /* points into the certificate; ref_len bytes */
	size_t ref_len;
};

struct rolling_push_cert {
	const char *data;
	size_t size, payload_size;
	char *pusher, *pushee, *nonce;
	long long pusher_time;       /* the pusher line's timestamp, -1 when absent */
	struct rolling_push_cert_command *commands;
	size_t commands_nr, commands_alloc;
};

/* Parse a certificate; the same contract as rolling_push_record_parse(). */
int rolling_push_cert_parse(struct rolling_push_cert *cert, const char *data, size_t size);
void rolling_push_cert_release(struct rolling_push_cert *cert);

/*
 * The repository path of a URL, as a push log names repositories: the
 * scheme and host removed ("ssh://git@host/a/b.git", "git@host:a/b.git"
 * and "https://host/a/b" all give "a/b"), leading slashes and a trailing
 * ".git" (and "/") dropped.  NULL when nothing is left, or memory ran out.
 */
char *rolling_push_log_repo_of_url(const char *url);

#endif
