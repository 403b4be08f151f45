/*
 * test-reftable: writes reftables with git's own reftable library
 * (lib/vendor/reftable/), in layouts git's commands do not choose, for
 * the tests to read back with git and with git rolling (git 2.55's
 * test-tool, which can, is not installed with git).
 *
 *   test-reftable add [--block-size=<n>] [--restart-interval=<n>]
 *                     [--unpadded] [--no-index-objects] <stack-dir>
 *
 * adds one table on top of the stack in <stack-dir> (a git directory's
 * reftable/, or a work tree's), through the library's own transaction
 * (tables.list.lock, a temporary table renamed into place: the host
 * functions of lib/reftable-system.c), at the stack's next update
 * index: the newest line of its tables.list names it.  The records are
 * read from stdin, one a line, in any order:
 *
 *   <name> <oid>                 a ref
 *   <name> <oid> <peeled-oid>    an annotated tag and what it peels to
 *   <name> -> <target>           a symbolic ref
 *   <name> deleted               a deletion, which hides older tables' record
 *
 * A name is taken as it is, any byte but a space or a newline: a name
 * git would refuse is written all the same.  Exit 0, or 1 with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/alloc.h"
#include "../../lib/vendor/reftable/reftable-error.h"
#include "../../lib/vendor/reftable/reftable-record.h"
#include "../../lib/vendor/reftable/reftable-stack.h"
#include "../../lib/vendor/reftable/reftable-writer.h"

struct records {
	struct reftable_ref_record *refs;
	size_t nr, alloc;
};

/* "test-reftable: <what><arg>" and exit 1. */
static void die(const char *what, const char *arg) __attribute__((noreturn));
static void die(const char *what, const char *arg)
{
	fprintf(stderr, "test-reftable: %s%s\n", what, arg);
	exit(1);
}

static void hex_to_raw(unsigned char *raw, const char *hex)
{
	int i;

	if (strlen(hex) != 2 * REFTABLE_HASH_SIZE_SHA1)
		die("not a SHA-1 object name: ", hex);
	for (i = 0; i < REFTABLE_HASH_SIZE_SHA1; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &raw[i]) != 1)
			die("not a SHA-1 object name: ", hex);
}

/* One line of stdin as a record; the line is the record's memory. */
static void parse_record(struct reftable_ref_record *ref, char *line)
{
	char *words[3] = { NULL, NULL, NULL }, *name = strtok(line, " ");
	int n = 0;

	while (n < 3 && (words[n] = strtok(NULL, " ")))
		n++;
	if (!name || !n || strtok(NULL, " "))
		die("cannot read the record: ", line);
	memset(ref, 0, sizeof(*ref));
	ref->refname = name;
	if (!strcmp(words[0], "->") && n == 2) {
		ref->value_type = REFTABLE_REF_SYMREF;
		ref->value.symref = words[1];
	} else if (!strcmp(words[0], "deleted") && n == 1) {
		ref->value_type = REFTABLE_REF_DELETION;
	} else if (n == 1) {
		ref->value_type = REFTABLE_REF_VAL1;
		hex_to_raw(ref->value.val1, words[0]);
	} else if (n == 2) {
		ref->value_type = REFTABLE_REF_VAL2;
		hex_to_raw(ref->value.val2.value, words[0]);
		hex_to_raw(ref->value.val2.target_value, words[1]);
	} else {
		die("cannot read the record of ", name);
	}
}

static void read_records(struct records *r)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;

	while ((len = getline(&line, &size, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (ALLOC_GROW(r->refs, r->nr + 1, r->alloc) < 0)
			die("out of memory", "");
		parse_record(&r->refs[r->nr++], line);
		line = NULL;    /* the record keeps it */
		size = 0;
	}
	free(line);
}

struct addition {
	struct records *records;
	uint64_t update_index;
};

static int write_table(struct reftable_writer *w, void *arg)
{
	struct addition *a = arg;
	size_t i;
	int err;

	if ((err = reftable_writer_set_limits(w, a->update_index, a->update_index)) < 0)
		return err;
	for (i = 0; i < a->records->nr; i++)
		a->records->refs[i].update_index = a->update_index;
	return reftable_writer_add_refs(w, a->records->refs, a->records->nr);
}

static unsigned long option_value(const char *arg, const char *name)
{
	size_t len = strlen(name);
	char *end;
	unsigned long v;

	if (strncmp(arg, name, len) || arg[len] != '=')
		return 0;
	v = strtoul(arg + len + 1, &end, 10);
	if (*end || !v)
		die("bad value: ", arg);
	return v;
}

static int add(int argc, char **argv)
{
	struct reftable_write_options opts = { 0 };
	struct records records = { NULL, 0, 0 };
	struct reftable_stack *st = NULL;
	struct addition a;
	unsigned long v;
	int i, err;

	opts.hash_id = REFTABLE_HASH_SHA1;
	opts.disable_auto_compact = 1;
	for (i = 0; i < argc - 1; i++) {
		if ((v = option_value(argv[i], "--block-size")))
			opts.block_size = (uint32_t)v;
		else if ((v = option_value(argv[i], "--restart-interval")))
			opts.restart_interval = (uint16_t)v;
		else if (!strcmp(argv[i], "--unpadded"))
			opts.unpadded = 1;
		else if (!strcmp(argv[i], "--no-index-objects"))
			opts.skip_index_objects = 1;
		else
			die("unknown option: ", argv[i]);
	}
	if (i != argc - 1)
		die("usage: test-reftable add [<options>] <stack-dir>", "");
	read_records(&records);
	if ((err = reftable_new_stack(&st, argv[i], &opts)) < 0)
		die("cannot open the stack: ", reftable_error_str(err));
	a.records = &records;
	a.update_index = reftable_stack_next_update_index(st);
	if ((err = reftable_stack_add(st, write_table, &a, 0)) < 0)
		die("cannot add the table: ", reftable_error_str(err));
	reftable_stack_destroy(st);
	for (i = 0; (size_t)i < records.nr; i++)
		free(records.refs[i].refname);
	free(records.refs);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "add"))
		return add(argc - 2, argv + 2);
	fprintf(stderr, "usage: test-reftable add [--block-size=<n>] [--restart-interval=<n>]"
		" [--unpadded] [--no-index-objects] <stack-dir> <records\n");
	return 129;
}
