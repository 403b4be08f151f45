#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "push-record.h"
#include "alloc.h"
#include "error.h"
#include "strbuf.h"
#include "signature.h"

/* The most header bytes of the message or of a part, continuation lines included. */
#define MAX_HEADER (64u << 10)
/* The most parts of a multipart message. */
#define MAX_PARTS 64
/* How deep the YAML document may nest: changes -> item -> value. */
#define MAX_DEPTH 3

#define CERT_ATTACHMENT "git-push-certificate.txt"

/* --- MIME -------------------------------------------------------------- */

/* A header block: its bytes, without the blank line that ends it. */
struct headers {
	const char *data;
	size_t size;
};

/*
 * Split `data` at its first blank line into headers and body.  A
 * message without one has no body: refused, as every record has one.
 */
static int split_headers(struct headers *h, const char **body, size_t *body_size,
			 const char *data, size_t size, const char *what)
{
	const char *end = data + size, *line = data;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));

		if (!nl)
			break;
		if (nl == line) {
			h->data = data;
			h->size = (size_t)(line - data);
			if (h->size > MAX_HEADER)
				return rolling_error("%s: headers longer than %u bytes", what,
						     MAX_HEADER);
			*body = nl + 1;
			*body_size = (size_t)(end - *body);
			return 0;
		}
		line = nl + 1;
	}
	return rolling_error("%s: truncated: no blank line ends the headers", what);
}

/*
 * The value of header `name` (its continuation lines joined by single
 * spaces) into *value, NULL when absent.  A header given twice is
 * refused: two readers could pick different ones.
 */
static int header_value(char **value, const struct headers *h, const char *name,
			const char *what)
{
	const char *line = h->data, *end = h->data + h->size;
	size_t name_len = strlen(name);
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	*value = NULL;
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *next = nl ? nl + 1 : end, *colon;

		if (*line == ' ' || *line == '\t') {
			line = next;
			continue;
		}
		colon = memchr(line, ':', (size_t)((nl ? nl : end) - line));
		if (!colon) {
			strbuf_release(&sb);
			return rolling_error("%s: a header line without a colon", what);
		}
		if ((size_t)(colon - line) == name_len && !strncasecmp(line, name, name_len)) {
			if (found++) {
				strbuf_release(&sb);
				return rolling_error("%s: header %s given twice", what, name);
			}
			strbuf_add(&sb, colon + 1, (size_t)((nl ? nl : end) - colon - 1));
			while (next < end && (*next == ' ' || *next == '\t')) {
				const char *cnl = memchr(next, '\n', (size_t)(end - next));
				const char *cend = cnl ? cnl : end;

				strbuf_addch(&sb, ' ');
				strbuf_add(&sb, next, (size_t)(cend - next));
				next = cnl ? cnl + 1 : end;
			}
		}
		line = next;
	}
	if (!found)
		return 0;
	if (strbuf_oom(&sb))
		return rolling_error_nomem();
	*value = strbuf_detach(&sb);
	return 0;
}

/* Trim spaces and tabs at both ends, in place. */
static char *trim(char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	return s;
}

/*
 * A parameter of a structured header value ("type/subtype; name=value;
 * ..."), copied into *out (NULL when absent).  Values are tokens or
 * quoted strings without backslashes: a quoted pair is refused rather
 * than unescaped, as no writer needs one in a boundary or file name.
 */
static int header_param(char **out, const char *value, const char *param, const char *what)
{
	size_t param_len = strlen(param);
	const char *p = strchr(value, ';');

	*out = NULL;
	while (p) {
		const char *name, *name_end, *start, *stop;

		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		name = p;
		while (*p && *p != '=' && *p != ';')
			p++;
		if (*p != '=')
			return rolling_error("%s: a header parameter without a value", what);
		name_end = p;
		while (name_end > name && (name_end[-1] == ' ' || name_end[-1] == '\t'))
			name_end--;
		p++;
		if (*p == '"') {
			start = ++p;
			while (*p && *p != '"' && *p != '\\')
				p++;
			if (*p != '"')
				return rolling_error("%s: a quoted header parameter that does not end",
						     what);
			stop = p++;
		} else {
			start = p;
			p += strcspn(p, "; \t");
			stop = p;
		}
		if ((size_t)(name_end - name) == param_len && !strncasecmp(name, param, param_len)) {
			if (*out) {
				free(*out);
				*out = NULL;
				return rolling_error("%s: header parameter %s given twice", what, param);
			}
			if (!(*out = strndup(start, (size_t)(stop - start))))
				return rolling_error_nomem();
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && *p != ';') {
			free(*out);
			*out = NULL;
			return rolling_error("%s: text after a header parameter", what);
		}
		p = *p ? p : NULL;
	}
	return 0;
}

/* Whether the media type of a Content-Type value (before any ';') is `type`. */
static int media_type_is(const char *value, const char *type)
{
	size_t len = strcspn(value, ";");
	size_t type_len = strlen(type);

	while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	while (*value == ' ' || *value == '\t') {
		value++;
		len--;
	}
	return len == type_len && !strncasecmp(value, type, len);
}

/* 7bit and 8bit are the text as it is; every other encoding is refused. */
static int check_encoding(const struct headers *h, const char *what)
{
	char *value;
	int err = header_value(&value, h, "Content-Transfer-Encoding", what);

	if (err < 0 || !value)
		return err;
	if (strcasecmp(trim(value), "7bit") && strcasecmp(trim(value), "8bit"))
		err = rolling_error("%s: Content-Transfer-Encoding %s refused (only 7bit and 8bit"
				    " text is read, never decoded)", what, trim(value));
	free(value);
	return err;
}

/* One part: text/plain (or no Content-Type), in 7bit or 8bit. */
static int check_text_part(const struct headers *h, const char *what)
{
	char *type;
	int err = header_value(&type, h, "Content-Type", what);

	if (!err && type && !media_type_is(type, "text/plain"))
		err = rolling_error("%s: Content-Type %s refused (text/plain expected)", what,
				    trim(type));
	free(type);
	return err < 0 ? err : check_encoding(h, what);
}

/* The file name of an attachment part, NULL for an inline one. */
static int attachment_name(char **name, const struct headers *h, const char *what)
{
	char *disposition;
	int err;

	*name = NULL;
	if ((err = header_value(&disposition, h, "Content-Disposition", what)) < 0 || !disposition)
		return err;
	if (media_type_is(disposition, "attachment")) {
		err = header_param(name, disposition, "filename", what);
		if (!err && (!*name || !**name))
			err = rolling_error("%s: an attachment without a file name", what);
	} else if (!media_type_is(disposition, "inline")) {
		err = rolling_error("%s: Content-Disposition %s refused", what, trim(disposition));
	}
	free(disposition);
	return err;
}

static int add_attachment(struct rolling_push_record *r, char *name, const char *data,
			  size_t size)
{
	struct rolling_push_attachment *a;

	if (rolling_push_record_attachment(r, name)) {
		int err = rolling_error("attachment %s given twice", name);

		free(name);
		return err;
	}
	if (ALLOC_GROW(r->attachments, r->attachments_nr + 1, r->attachments_alloc) < 0) {
		free(name);
		return ROLLING_ERROR;
	}
	a = &r->attachments[r->attachments_nr++];
	a->name = name;
	a->data = data;
	a->size = size;
	return 0;
}

/* Where the next delimiter line "--<boundary>" starts at or after `from`; NULL when none. */
static const char *find_delimiter(const char *from, const char *end, const char *boundary,
				  size_t boundary_len)
{
	const char *line = from;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = (size_t)((nl ? nl : end) - line);

		if (len >= boundary_len + 2 && line[0] == '-' && line[1] == '-' &&
		    !memcmp(line + 2, boundary, boundary_len))
			return line;
		line = nl ? nl + 1 : end;
	}
	return NULL;
}

static int parse_yaml(struct rolling_push_record *r, const char *data, size_t size);

/*
 * The parts of a multipart/mixed body, between "--<boundary>" lines,
 * the last one "--<boundary>--".  Each delimiter line must be exactly
 * that: trailing text (even transport padding) is refused.  The line
 * end before a delimiter belongs to it (RFC 2046), not to the part.
 */
static int parse_multipart(struct rolling_push_record *r, const char *body, size_t size,
			   const char *boundary, const char **yaml, size_t *yaml_size)
{
	const char *end = body + size, *delim;
	size_t blen = strlen(boundary), parts = 0;
	int err = 0;

	if (!(delim = find_delimiter(body, end, boundary, blen)))
		return rolling_error("multipart message: boundary %s missing", boundary);
	for (;;) {
		const char *after = delim + 2 + blen, *part, *next, *pbody;
		size_t pbody_size;
		struct headers h;
		char what[48], *name = NULL;

		if ((size_t)(end - after) >= 2 && after[0] == '-' && after[1] == '-') {
			after += 2;
			if (after < end && *after != '\n')
				return rolling_error("multipart message: text after the closing boundary"
						     " on its line");
			break;
		}
		if (after >= end || *after != '\n')
			return rolling_error("multipart message: text after a boundary on its line");
		if (++parts > MAX_PARTS)
			return rolling_error("multipart message: more than %d parts", MAX_PARTS);
		part = after + 1;
		if (!(next = find_delimiter(part, end, boundary, blen)))
			return rolling_error("multipart message: truncated: boundary %s not closed",
					     boundary);
		snprintf(what, sizeof(what), "part %zu", parts);
		if ((err = split_headers(&h, &pbody, &pbody_size, part, (size_t)(next - part),
					 what)) < 0 ||
		    (err = check_text_part(&h, what)) < 0 ||
		    (err = attachment_name(&name, &h, what)) < 0)
			return err;
		/* The line end before the delimiter is the delimiter's. */
		pbody_size = pbody_size ? pbody_size - 1 : 0;
		if (parts == 1) {
			if (name) {
				free(name);
				return rolling_error("part 1: an attachment, not the YAML document");
			}
			*yaml = pbody;
			*yaml_size = pbody_size;
		} else if (!name) {
			return rolling_error("%s: not an attachment (only the first part is inline)",
					     what);
		} else if ((err = add_attachment(r, name, pbody, pbody_size)) < 0) {
			return err;
		}
		delim = next;
	}
	if (!parts)
		return rolling_error("multipart message: no part");
	return 0;
}

static int parse_record(struct rolling_push_record *r, const char *data, size_t size,
			const char *repo);

int rolling_push_record_parse(struct rolling_push_record *r, const char *data, size_t size)
{
	return parse_record(r, data, size, NULL);
}

int rolling_push_record_parse_for(struct rolling_push_record *r, const char *data, size_t size,
				  const char *repo)
{
	return parse_record(r, data, size, repo);
}

/* Whether a YAML text can hold a scalar whose value is `repo` (push-record.h). */
static int may_name(const char *yaml, size_t size, const char *repo)
{
	return memmem(yaml, size, repo, strlen(repo)) || memchr(yaml, '\\', size);
}

int rolling_push_record_may_name(const char *text, size_t size, const char *repo)
{
	return may_name(text, size, repo);
}

static int parse_record(struct rolling_push_record *r, const char *data, size_t size,
			const char *repo)
{
	struct headers h;
	const char *body, *yaml = NULL;
	size_t body_size, yaml_size = 0;
	char *type = NULL, *boundary = NULL;
	int err;

	memset(r, 0, sizeof(*r));
	/* Read strictly, it cannot be the repository's: no bytes spell it (push-record.h). */
	if (repo && *repo && !may_name(data, size, repo))
		return 1;
	if (size > ROLLING_PUSH_RECORD_MAX_SIZE)
		return rolling_error("record larger than %u bytes", ROLLING_PUSH_RECORD_MAX_SIZE);
	if (memchr(data, '\r', size))
		return rolling_error("carriage return in the record (CRLF line ends are refused)");
	if (memchr(data, '\0', size))
		return rolling_error("NUL byte in the record");
	if ((err = split_headers(&h, &body, &body_size, data, size, "message")) < 0 ||
	    (err = header_value(&r->date, &h, "Date", "message")) < 0 ||
	    (err = header_value(&type, &h, "Content-Type", "message")) < 0)
		goto out;
	if (type && media_type_is(type, "multipart/mixed")) {
		if ((err = check_encoding(&h, "message")) < 0 ||
		    (err = header_param(&boundary, type, "boundary", "message")) < 0)
			goto out;
		if (!boundary || !*boundary) {
			err = rolling_error("multipart message without a boundary");
			goto out;
		}
		err = parse_multipart(r, body, body_size, boundary, &yaml, &yaml_size);
	} else if (!type || media_type_is(type, "text/plain")) {
		err = check_encoding(&h, "message");
		yaml = body;
		yaml_size = body_size;
	} else {
		err = rolling_error("Content-Type %s refused (text/plain or multipart/mixed expected)",
				    trim(type));
	}
	if (!err && repo && *repo && !may_name(yaml, yaml_size, repo))
		err = 1;
	else if (!err)
		err = parse_yaml(r, yaml, yaml_size);
out:
	free(type);
	free(boundary);
	return err;
}

const struct rolling_push_attachment *rolling_push_record_attachment(
	const struct rolling_push_record *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->attachments_nr; i++)
		if (!strcmp(r->attachments[i].name, name))
			return &r->attachments[i];
	return NULL;
}

void rolling_push_record_release(struct rolling_push_record *r)
{
	size_t i;

	free(r->service);
	free(r->repo);
	free(r->user);
	free(r->cert_status);
	free(r->nonce_status);
	free(r->date);
	for (i = 0; i < r->changes_nr; i++) {
		free(r->changes[i].ref);
		free(r->changes[i].log);
	}
	free(r->changes);
	for (i = 0; i < r->attachments_nr; i++)
		free(r->attachments[i].name);
	free(r->attachments);
	memset(r, 0, sizeof(*r));
}

/* --- YAML -------------------------------------------------------------- */

struct yaml_reader {
	yaml_parser_t parser;
	yaml_event_t event;
	int has_event;
};

/* A node as the format writes every one: without an anchor or a tag. */
static int plain_node(const yaml_char_t *anchor, const yaml_char_t *tag)
{
	if (anchor)
		return rolling_error("YAML: anchor &%s refused", (const char *)anchor);
	if (tag)
		return rolling_error("YAML: tag %s refused", (const char *)tag);
	return 0;
}

/*
 * The next event, refusing what the format never uses: an anchor or an
 * alias (a record whose meaning depends on references), a tag (a type
 * other than the plain one), an oversized scalar.
 */
static int next_event(struct yaml_reader *y)
{
	yaml_event_t *e = &y->event;
	int err;

	if (y->has_event)
		yaml_event_delete(e);
	y->has_event = 0;
	if (!yaml_parser_parse(&y->parser, e))
		return rolling_error("YAML: %s at line %zu", y->parser.problem ?
				     y->parser.problem : "unreadable",
				     y->parser.problem_mark.line + 1);
	y->has_event = 1;
	switch (e->type) {
	case YAML_ALIAS_EVENT:
		return rolling_error("YAML: alias *%s refused", (const char *)e->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		if ((err = plain_node(e->data.scalar.anchor, e->data.scalar.tag)) < 0)
			return err;
		if (e->data.scalar.length > ROLLING_PUSH_RECORD_MAX_SCALAR)
			return rolling_error("YAML: a scalar longer than %u bytes",
					     ROLLING_PUSH_RECORD_MAX_SCALAR);
		break;
	case YAML_SEQUENCE_START_EVENT:
		return plain_node(e->data.sequence_start.anchor, e->data.sequence_start.tag);
	case YAML_MAPPING_START_EVENT:
		return plain_node(e->data.mapping_start.anchor, e->data.mapping_start.tag);
	case YAML_DOCUMENT_START_EVENT:
		if (e->data.document_start.tag_directives.start !=
		    e->data.document_start.tag_directives.end ||
		    e->data.document_start.version_directive)
			return rolling_error("YAML: directives refused");
		break;
	default:
		break;
	}
	return 0;
}

static int expect_event(struct yaml_reader *y, yaml_event_type_t type, const char *what)
{
	int err = next_event(y);

	if (err < 0)
		return err;
	if (y->event.type != type)
		return rolling_error("YAML: %s expected", what);
	return 0;
}

/* The scalar just read, copied. */
static int take_scalar(char **out, struct yaml_reader *y, const char *key)
{
	if (y->event.type != YAML_SCALAR_EVENT)
		return rolling_error("YAML: %s: a text value expected", key);
	if (memchr(y->event.data.scalar.value, '\0', y->event.data.scalar.length))
		return rolling_error("YAML: %s: a NUL in the value", key);
	if (!(*out = strndup((const char *)y->event.data.scalar.value,
			     y->event.data.scalar.length)))
		return rolling_error_nomem();
	return 0;
}

static int read_scalar(char **out, struct yaml_reader *y, const char *key)
{
	int err = next_event(y);

	return err < 0 ? err : take_scalar(out, y, key);
}

static int read_oid(git_oid *id, struct yaml_reader *y, const char *key)
{
	char *hex;
	int err = read_scalar(&hex, y, key);

	if (err < 0)
		return err;
	if (strlen(hex) != GIT_OID_HEXSZ || strspn(hex, "0123456789abcdef") != GIT_OID_HEXSZ ||
	    git_oid_fromstr(id, hex) < 0)
		err = rolling_error("YAML: %s: not an object id: %.64s", key, hex);
	free(hex);
	return err;
}

/* Keys seen in one mapping, to refuse a duplicate. */
struct seen_keys {
	char *names[8];
	size_t nr;
};

static int see_key(struct seen_keys *seen, const char *key)
{
	size_t i;

	for (i = 0; i < seen->nr; i++)
		if (!strcmp(seen->names[i], key))
			return rolling_error("YAML: key %s given twice", key);
	if (seen->nr == sizeof(seen->names) / sizeof(seen->names[0]))
		return rolling_error("YAML: too many keys in one mapping");
	if (!(seen->names[seen->nr] = strdup(key)))
		return rolling_error_nomem();
	seen->nr++;
	return 0;
}

static void seen_release(struct seen_keys *seen)
{
	while (seen->nr)
		free(seen->names[--seen->nr]);
}

/* One item of `changes`: a mapping of ref, old, new and log. */
static int read_change(struct rolling_push_record *r, struct yaml_reader *y)
{
	struct rolling_push_change *c;
	struct seen_keys seen = { { NULL }, 0 };
	int has_old = 0, has_new = 0, err = 0;

	if (r->changes_nr >= ROLLING_PUSH_RECORD_MAX_CHANGES)
		return rolling_error("YAML: more than %d changes", ROLLING_PUSH_RECORD_MAX_CHANGES);
	if (ALLOC_GROW(r->changes, r->changes_nr + 1, r->changes_alloc) < 0)
		return ROLLING_ERROR;
	c = &r->changes[r->changes_nr++];
	memset(c, 0, sizeof(*c));
	while (!err && !(err = next_event(y)) && y->event.type != YAML_MAPPING_END_EVENT) {
		char *key = NULL;

		if ((err = take_scalar(&key, y, "changes")) < 0 || (err = see_key(&seen, key)) < 0) {
			free(key);
			break;
		}
		if (!strcmp(key, "ref"))
			err = read_scalar(&c->ref, y, "ref");
		else if (!strcmp(key, "old"))
			err = read_oid(&c->old_id, y, "old"), has_old = 1;
		else if (!strcmp(key, "new"))
			err = read_oid(&c->new_id, y, "new"), has_new = 1;
		else if (!strcmp(key, "log"))
			err = read_scalar(&c->log, y, "log");
		else
			err = rolling_error("YAML: changes: unknown key %.64s", key);
		free(key);
	}
	seen_release(&seen);
	if (err < 0)
		return err;
	if (!c->ref || !has_old || !has_new)
		return rolling_error("YAML: a change without %s",
				     !c->ref ? "ref" : !has_old ? "old" : "new");
	if (strncmp(c->ref, "refs/", 5) || strchr(c->ref, '\n') || strchr(c->ref, ' '))
		return rolling_error("YAML: ref %.200s is not a ref name", c->ref);
	return 0;
}

static int read_changes(struct rolling_push_record *r, struct yaml_reader *y)
{
	int err = expect_event(y, YAML_SEQUENCE_START_EVENT, "changes: a list");

	while (!err && !(err = next_event(y)) && y->event.type != YAML_SEQUENCE_END_EVENT) {
		if (y->event.type != YAML_MAPPING_START_EVENT)
			return rolling_error("YAML: changes: each change must be a mapping");
		err = read_change(r, y);
	}
	if (!err && !r->changes_nr)
		err = rolling_error("YAML: changes: empty");
	return err;
}

static int read_top(struct rolling_push_record *r, struct yaml_reader *y)
{
	struct seen_keys seen = { { NULL }, 0 };
	int err = 0, has_changes = 0;

	while (!err && !(err = next_event(y)) && y->event.type != YAML_MAPPING_END_EVENT) {
		char *key = NULL;

		if ((err = take_scalar(&key, y, "record")) < 0 || (err = see_key(&seen, key)) < 0) {
			free(key);
			break;
		}
		if (!strcmp(key, "service"))
			err = read_scalar(&r->service, y, "service");
		else if (!strcmp(key, "repo"))
			err = read_scalar(&r->repo, y, "repo");
		else if (!strcmp(key, "user"))
			err = read_scalar(&r->user, y, "user");
		else if (!strcmp(key, "git_push_cert_status"))
			err = read_scalar(&r->cert_status, y, "git_push_cert_status");
		else if (!strcmp(key, "git_push_cert_nonce_status"))
			err = read_scalar(&r->nonce_status, y, "git_push_cert_nonce_status");
		else if (!strcmp(key, "changes"))
			err = read_changes(r, y), has_changes = 1;
		else
			err = rolling_error("YAML: unknown key %.64s", key);
		free(key);
	}
	seen_release(&seen);
	if (err < 0)
		return err;
	if (!r->repo || !*r->repo)
		return rolling_error("YAML: no repo");
	if (!has_changes)
		return rolling_error("YAML: no changes");
	if (!r->service || strcmp(r->service, "git-receive-pack"))
		return rolling_error("YAML: service %.64s is not git-receive-pack",
				     r->service ? r->service : "(none)");
	return 0;
}

/*
 * The document: one mapping, in one document.  A tab anywhere is
 * refused before libyaml sees it: YAML forbids tabs in indentation but
 * readers differ on them elsewhere, and no writer emits one.
 */
static int parse_yaml(struct rolling_push_record *r, const char *data, size_t size)
{
	struct yaml_reader y;
	int err;

	if (memchr(data, '\t', size))
		return rolling_error("YAML: tab character refused");
	memset(&y, 0, sizeof(y));
	if (!yaml_parser_initialize(&y.parser))
		return rolling_error_nomem();
	yaml_parser_set_input_string(&y.parser, (const unsigned char *)data, size);
	if (!(err = expect_event(&y, YAML_STREAM_START_EVENT, "a stream")) &&
	    !(err = expect_event(&y, YAML_DOCUMENT_START_EVENT, "a document")) &&
	    !(err = expect_event(&y, YAML_MAPPING_START_EVENT, "a mapping")) &&
	    !(err = read_top(r, &y)) &&
	    !(err = expect_event(&y, YAML_DOCUMENT_END_EVENT, "the end of the document")) &&
	    (err = next_event(&y)) >= 0 && y.event.type != YAML_STREAM_END_EVENT)
		err = rolling_error("YAML: more than one document");
	if (y.has_event)
		yaml_event_delete(&y.event);
	yaml_parser_delete(&y.parser);
	return err;
}

/* --- push certificates ------------------------------------------------- */

static int cert_header(char **field, const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len <= n + 1 || memcmp(line, name, n) || line[n] != ' ')
		return 0;
	if (*field)
		return rolling_error("push certificate: %s given twice", name);
	if (!(*field = strndup(line + n + 1, len - n - 1)))
		return rolling_error_nomem();
	return 1;
}

static int cert_command(struct rolling_push_cert *c, const char *line, size_t len)
{
	struct rolling_push_cert_command *cmd;

	if (len < 2 * GIT_OID_HEXSZ + 3 || line[GIT_OID_HEXSZ] != ' ' ||
	    line[2 * GIT_OID_HEXSZ + 1] != ' ' ||
	    strspn(line, "0123456789abcdef") != GIT_OID_HEXSZ ||
	    strspn(line + GIT_OID_HEXSZ + 1, "0123456789abcdef") != GIT_OID_HEXSZ)
		return rolling_error("push certificate: a line that is not <old> <new> <ref>");
	if (ALLOC_GROW(c->commands, c->commands_nr + 1, c->commands_alloc) < 0)
		return ROLLING_ERROR;
	cmd = &c->commands[c->commands_nr++];
	git_oid_fromstrn(&cmd->old_id, line, GIT_OID_HEXSZ);
	git_oid_fromstrn(&cmd->new_id, line + GIT_OID_HEXSZ + 1, GIT_OID_HEXSZ);
	cmd->ref = line + 2 * GIT_OID_HEXSZ + 2;
	cmd->ref_len = len - 2 * GIT_OID_HEXSZ - 2;
	return 0;
}

/* "Name <email> 1700000000 +0000": the timestamp. */
static long long ident_time(const char *ident)
{
	const char *gt = strrchr(ident, '>');
	char *end;
	long long t;

	if (!gt || gt[1] != ' ')
		return -1;
	t = strtoll(gt + 2, &end, 10);
	return end == gt + 2 || *end != ' ' ? -1 : t;
}

int rolling_push_cert_parse(struct rolling_push_cert *c, const char *data, size_t size)
{
	static const char version[] = "certificate version 0.1\n";
	const char *line, *end = data + size;
	int in_header = 1, err = 0;

	memset(c, 0, sizeof(*c));
	c->data = data;
	c->size = size;
	c->pusher_time = -1;
	if (size < sizeof(version) - 1 || memcmp(data, version, sizeof(version) - 1))
		return rolling_error("push certificate: not \"certificate version 0.1\"");
	for (line = data + sizeof(version) - 1; line < end && !err;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = (size_t)((nl ? nl : end) - line);

		if (!nl)
			return rolling_error("push certificate: truncated: no signature");
		/* The signature begins at a line that is an armour line and nothing else. */
		if (!in_header && len && rolling_signature_armour(line, len) == len) {
			c->payload_size = (size_t)(line - data);
			break;
		}
		if (in_header && !len)
			in_header = 0;
		else if (in_header) {
			if (!(err = cert_header(&c->pusher, line, len, "pusher")) &&
			    !(err = cert_header(&c->pushee, line, len, "pushee")) &&
			    !(err = cert_header(&c->nonce, line, len, "nonce")) &&
			    !(len > 12 && !memcmp(line, "push-option ", 12)))
				err = rolling_error("push certificate: unknown header line");
			err = err < 0 ? err : 0;
		} else {
			err = cert_command(c, line, len);
		}
		line = nl + 1;
	}
	if (err < 0)
		return err;
	if (!c->payload_size)
		return rolling_error("push certificate: no signature");
	if (!c->pusher)
		return rolling_error("push certificate: no pusher");
	if (!c->commands_nr)
		return rolling_error("push certificate: no ref updated");
	c->pusher_time = ident_time(c->pusher);
	return 0;
}

void rolling_push_cert_release(struct rolling_push_cert *c)
{
	free(c->pusher);
	free(c->pushee);
	free(c->nonce);
	free(c->commands);
	memset(c, 0, sizeof(*c));
}

/* --- repository names -------------------------------------------------- */

char *rolling_push_log_repo_of_url(const char *url)
{
	const char *path = url, *scheme = strstr(url, "://");
	size_t len;

	if (scheme) {
		path = strchr(scheme + 3, '/');
		if (!path)
			return NULL;
	} else {
		/* scp-like "host:path", when a ':' comes before any '/'. */
		const char *colon = strchr(url, ':'), *slash = strchr(url, '/');

		if (colon && (!slash || colon < slash))
			path = colon + 1;
	}
	while (*path == '/')
		path++;
	len = strlen(path);
	while (len && path[len - 1] == '/')
		len--;
	if (len >= 4 && !memcmp(path + len - 4, ".git", 4))
		len -= 4;
	while (len && path[len - 1] == '/')
		len--;
	if (!len || (len == 1 && *path == '.'))
		return NULL;
	return strndup(path, len);
}
