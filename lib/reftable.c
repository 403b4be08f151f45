#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reftable.h"
#include "alloc.h"
#include "error.h"
#include "strbuf.h"

/* How often tables.list is read again when a table it named is gone. */
#define MAX_RETRIES 16

#define V1_HEADER 24
#define V1_FOOTER 68
#define V2_HEADER 28
#define V2_FOOTER 72
#define BLOCK_HEADER 4

/* A record while the stack is read: offsets into the name buffer, which grows. */
struct record {
	size_t name, target;       /* offsets; target (size_t)-1 when none */
	enum rolling_reftable_kind kind;
	git_oid value, peeled;
	size_t table;              /* 0 for the oldest table */
	size_t seq;                /* its order in the reading, to keep sorts stable */
};

struct reading {
	struct strbuf names;       /* every name and target, NUL-terminated */
	struct record *records;
	size_t nr, alloc;
	const char *path;          /* of the table being read, for messages */
	size_t last;               /* the table's last name so far; (size_t)-1 at its start */
};

/* --- bytes --------------------------------------------------------------- */

static uint64_t be(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | *p++;
	return v;
}

/* The format's varint (that of pack files' ofs-delta); 0 or -1 past `end`. */
static int varint(uint64_t *out, const unsigned char **p, const unsigned char *end)
{
	uint64_t v;

	if (*p >= end)
		return -1;
	v = **p & 0x7f;
	while (*(*p)++ & 0x80) {
		if (*p >= end || v > (UINT64_MAX >> 7) - 1)
			return -1;
		v = ((v + 1) << 7) | (**p & 0x7f);
	}
	*out = v;
	return 0;
}

static uint32_t crc32_of(const unsigned char *p, size_t len)
{
	static uint32_t table[256];
	uint32_t crc = 0xffffffff;
	size_t i;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t c = (uint32_t)i;
			int k;

			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	for (i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffff;
}

static int corrupt(const struct reading *r, const char *what)
{
	return rolling_error("cannot read the reftable '%s': %s", r->path, what);
}

/* --- one table --------------------------------------------------------------- */

struct table {
	const unsigned char *data;
	size_t len;
	size_t header_len;
	uint64_t block_size;
	size_t refs_end;           /* where the ref blocks end */
};

static int read_header_footer(struct table *t, const struct reading *r)
{
	const unsigned char *footer;
	size_t footer_len;
	uint64_t ends[4];
	size_t i;

	if (t->len < V1_HEADER + V1_FOOTER || memcmp(t->data, "REFT", 4))
		return corrupt(r, "not a reftable");
	if (t->data[4] == 1) {
		t->header_len = V1_HEADER;
		footer_len = V1_FOOTER;
	} else if (t->data[4] == 2) {
		t->header_len = V2_HEADER;
		footer_len = V2_FOOTER;
		if (t->len < V2_HEADER + V2_FOOTER)
			return corrupt(r, "too short");
		if (memcmp(t->data + 24, "sha1", 4))
			return corrupt(r, "its object names are not SHA-1");
	} else {
		return corrupt(r, "unknown version");
	}
	t->block_size = be(t->data + 5, 3);
	footer = t->data + t->len - footer_len;
	if (memcmp(footer, t->data, t->header_len))
		return corrupt(r, "its footer does not repeat its header");
	if (crc32_of(footer, footer_len - 4) != be(footer + footer_len - 4, 4))
		return corrupt(r, "its footer fails its CRC-32");
	/* The refs end where the ref index, the objects or the logs begin. */
	ends[0] = be(footer + t->header_len, 8);
	ends[1] = be(footer + t->header_len + 8, 8) >> 5;
	ends[2] = be(footer + t->header_len + 16, 8);
	ends[3] = be(footer + t->header_len + 24, 8);
	t->refs_end = t->len - footer_len;
	for (i = 0; i < 4; i++)
		if (ends[i] && ends[i] < t->refs_end)
			t->refs_end = (size_t)ends[i];
	return 0;
}

static int add_record(struct reading *r, const struct record *rec)
{
	if (ALLOC_GROW(r->records, r->nr + 1, r->alloc) < 0)
		return ROLLING_ERROR;
	r->records[r->nr] = *rec;
	r->records[r->nr].seq = r->nr;
	r->nr++;
	return 0;
}

/*
 * One ref record at *p: prefix length, suffix length and type, suffix,
 * update index delta, value.  `prev` and `prev_len` are the name before
 * it in the block; on return they are this one's.
 */
static int read_record(struct reading *r, const unsigned char **p, const unsigned char *end,
		       size_t *prev, size_t *prev_len, size_t table)
{
	struct record rec;
	uint64_t prefix, x, suffix, delta, target_len;
	size_t start = r->names.len;

	memset(&rec, 0, sizeof(rec));
	rec.target = (size_t)-1;
	rec.table = table;
	if (varint(&prefix, p, end) < 0 || varint(&x, p, end) < 0)
		return corrupt(r, "a ref record is cut short");
	suffix = x >> 3;
	rec.kind = (enum rolling_reftable_kind)(x & 7);
	if (prefix > *prev_len || suffix > (uint64_t)(end - *p) || !(prefix + suffix))
		return corrupt(r, "a ref name runs out of its block");
	/* Copy the prefix first: the buffer may move as it grows. */
	strbuf_grow(&r->names, (size_t)(prefix + suffix + 1));
	if (strbuf_oom(&r->names))
		return rolling_error_nomem();
	strbuf_add(&r->names, r->names.buf + *prev, (size_t)prefix);
	strbuf_add(&r->names, *p, (size_t)suffix);
	*p += suffix;
	if (memchr(r->names.buf + start, '\0', (size_t)(prefix + suffix)))
		return corrupt(r, "a ref name holds a NUL");
	strbuf_addch(&r->names, '\0');
	if (strbuf_oom(&r->names))
		return rolling_error_nomem();
	/* Sorted and unique in a table: git searches it by name. */
	if (r->last != (size_t)-1 && strcmp(r->names.buf + r->last, r->names.buf + start) >= 0)
		return corrupt(r, "its refs are not in order");
	r->last = start;
	rec.name = start;
	*prev = start;
	*prev_len = (size_t)(prefix + suffix);
	if (varint(&delta, p, end) < 0)
		return corrupt(r, "a ref record is cut short");
	switch (rec.kind) {
	case ROLLING_REFTABLE_DELETION:
		break;
	case ROLLING_REFTABLE_DIRECT:
	case ROLLING_REFTABLE_PEELED:
		if ((size_t)(end - *p) < (rec.kind == ROLLING_REFTABLE_PEELED ? 2 : 1) * GIT_OID_RAWSZ)
			return corrupt(r, "a ref value is cut short");
		git_oid_fromraw(&rec.value, *p);
		*p += GIT_OID_RAWSZ;
		if (rec.kind == ROLLING_REFTABLE_PEELED) {
			git_oid_fromraw(&rec.peeled, *p);
			*p += GIT_OID_RAWSZ;
		}
		break;
	case ROLLING_REFTABLE_SYMBOLIC:
		if (varint(&target_len, p, end) < 0 || target_len > (uint64_t)(end - *p) ||
		    !target_len || memchr(*p, '\0', (size_t)target_len))
			return corrupt(r, "a symbolic ref target runs out of its block");
		rec.target = r->names.len;
		strbuf_add(&r->names, *p, (size_t)target_len);
		strbuf_addch(&r->names, '\0');
		*p += target_len;
		break;
	default:
		return corrupt(r, "a ref record of an unknown type");
	}
	if (strbuf_oom(&r->names))
		return rolling_error_nomem();
	return add_record(r, &rec);
}

/* The ref block at `pos`; *next is where the next block starts. */
static int read_block(struct reading *r, const struct table *t, size_t pos, size_t *next,
		      size_t table)
{
	size_t at = pos ? pos : t->header_len, block_end, restarts;
	size_t prev = 0, prev_len = 0;
	const unsigned char *p, *end;
	uint64_t count;

	if (at + BLOCK_HEADER > t->refs_end)
		return corrupt(r, "a ref block is cut short");
	block_end = pos + (size_t)be(t->data + at + 1, 3);
	if (block_end > t->refs_end || block_end < at + BLOCK_HEADER + 2 ||
	    (t->block_size && block_end - pos > t->block_size))
		return corrupt(r, "a ref block runs out of its table");
	count = be(t->data + block_end - 2, 2);
	if (!count || 3 * count + 2 > block_end - at - BLOCK_HEADER)
		return corrupt(r, "a ref block has no room for its restart points");
	restarts = block_end - 2 - 3 * (size_t)count;
	p = t->data + at + BLOCK_HEADER;
	end = t->data + restarts;
	while (p < end) {
		int err = read_record(r, &p, end, &prev, &prev_len, table);

		if (err < 0)
			return err;
	}
	*next = t->block_size ? pos + (size_t)t->block_size : block_end;
	return 0;
}

static int read_refs(struct reading *r, const struct table *t, size_t table)
{
	size_t pos = 0, next = 0;
	int err;

	while (pos < t->refs_end) {
		size_t at = pos ? pos : t->header_len;

		/* A file of logs only has a log block right after its header. */
		if (at >= t->refs_end || t->data[at] != 'r')
			break;
		if ((err = read_block(r, t, pos, &next, table)) < 0)
			return err;
		pos = next;
	}
	return 0;
}

/* 1 when the table is gone (compacted away meanwhile), else 0 or an error. */
static int read_table(struct reading *r, const char *dir, const char *name, size_t table)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	struct table t;
	int err;

	memset(&t, 0, sizeof(t));
	strbuf_addf(&path, "%s/%s", dir, name);
	if (strbuf_oom(&path))
		return rolling_error_nomem();
	r->path = path.buf;
	r->last = (size_t)-1;
	if (strbuf_read_file(&data, path.buf) < 0) {
		err = errno == ENOENT && !strbuf_oom(&data) ? 1 :
		      rolling_error("cannot read the reftable '%s': %s", path.buf, strerror(errno));
	} else {
		t.data = (const unsigned char *)data.buf;
		t.len = data.len;
		if (!(err = read_header_footer(&t, r)))
			err = read_refs(r, &t, table);
	}
	r->path = NULL;
	strbuf_release(&data);
	strbuf_release(&path);
	return err;
}

/* --- the stack ------------------------------------------------------------------ */

int rolling_reftable_read_list(char **list, size_t *len, const char *dir)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	int err = 0;

	strbuf_addf(&path, "%s/tables.list", dir);
	if (strbuf_oom(&path))
		return rolling_error_nomem();
	if (strbuf_read_file(&sb, path.buf) < 0 && (strbuf_oom(&sb) || errno != ENOENT))
		err = strbuf_oom(&sb) ? rolling_error_nomem() :
		      rolling_error("cannot read '%s': %s", path.buf, strerror(errno));
	strbuf_release(&path);
	if (err) {
		strbuf_release(&sb);
		return err;
	}
	*len = sb.len;
	return (*list = strbuf_detach(&sb)) ? 0 : rolling_error_nomem();
}

/* Newest table first for a name, then by the order read. */
static int cmp_records(const void *a, const void *b, void *names)
{
	const struct record *ra = a, *rb = b;
	int c = strcmp((const char *)names + ra->name, (const char *)names + rb->name);

	if (c)
		return c;
	if (ra->table != rb->table)
		return ra->table > rb->table ? -1 : 1;
	return ra->seq < rb->seq ? -1 : ra->seq > rb->seq;
}

static int plain_name(const char *name)
{
	return *name && *name != '.' && !strchr(name, '/');
}

/* 1 when a table was gone (read tables.list again), else 0 or an error. */
static int read_tables(struct reading *r, char *list, const char *dir)
{
	char *line, *next;
	size_t table = 0;
	int err;

	for (line = list; *line; line = next, table++) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (!plain_name(line))
			return rolling_error("'%s/tables.list' names '%s', which is no table of"
					     " its directory", dir, line);
		if ((err = read_table(r, dir, line, table)) != 0)
			return err;
	}
	return 0;
}

/* The newest record of each name, without deletions, as the stack's refs. */
static int keep_newest(struct rolling_reftable_stack *stack, struct reading *r)
{
	size_t i;

	qsort_r(r->records, r->nr, sizeof(*r->records), cmp_records, r->names.buf);
	if (!(stack->refs = calloc(r->nr ? r->nr : 1, sizeof(*stack->refs))))
		return rolling_error_nomem();
	stack->names_len = r->names.len;
	stack->names = strbuf_detach(&r->names);
	for (i = 0; i < r->nr; i++) {
		const struct record *rec = &r->records[i];
		struct rolling_reftable_ref *ref;

		if (i && !strcmp(stack->names + rec->name, stack->names + r->records[i - 1].name))
			continue;
		if (rec->kind == ROLLING_REFTABLE_DELETION)
			continue;
		ref = &stack->refs[stack->nr++];
		ref->name = stack->names + rec->name;
		ref->kind = rec->kind;
		ref->value = rec->value;
		ref->peeled = rec->peeled;
		ref->target = rec->target == (size_t)-1 ? NULL : stack->names + rec->target;
	}
	return 0;
}

int rolling_reftable_read(struct rolling_reftable_stack *stack, const char *dir)
{
	int tries, err = 0;

	memset(stack, 0, sizeof(*stack));
	for (tries = 0; tries < MAX_RETRIES; tries++) {
		struct reading r = { STRBUF_INIT, NULL, 0, 0, NULL, (size_t)-1 };
		char *list;

		if ((err = rolling_reftable_read_list(&stack->list, &stack->list_len, dir)) < 0)
			return err;
		if (!(list = strdup(stack->list))) {
			err = rolling_error_nomem();
		} else if ((err = read_tables(&r, list, dir)) == 0) {
			err = keep_newest(stack, &r);
		}
		free(list);
		free(r.records);
		strbuf_release(&r.names);
		if (err <= 0)
			break;
		/* git compacted the stack meanwhile: read it again. */
		free(stack->list);
		stack->list = NULL;
	}
	if (err > 0)
		err = rolling_error("the reftable stack '%s' keeps changing under us", dir);
	if (err < 0)
		rolling_reftable_release(stack);
	return err;
}

static int cmp_name(const void *key, const void *ref)
{
	return strcmp(key, ((const struct rolling_reftable_ref *)ref)->name);
}

const struct rolling_reftable_ref *rolling_reftable_find(const struct rolling_reftable_stack *stack,
							 const char *name)
{
	return bsearch(name, stack->refs, stack->nr, sizeof(*stack->refs), cmp_name);
}

void rolling_reftable_release(struct rolling_reftable_stack *stack)
{
	free(stack->list);
	free(stack->refs);
	free(stack->names);
	memset(stack, 0, sizeof(*stack));
}
