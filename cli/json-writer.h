#ifndef ROLLING_JSON_WRITER_H
#define ROLLING_JSON_WRITER_H

/*
 * Building the --json documents of verify and log with json-c.  json-c's
 * constructors return NULL, and its adders -1, when memory runs out;
 * these die then, as the x* wrappers (wrapper.h) do, so that the
 * documents are built without a check at every call.
 *
 * Header-only, because only the commands that link json-c (see the
 * Makefile) may include it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <git2.h>
#include <json.h>
#include "report.h"
#include "../lib/repo.h"
#include "../lib/utf8.h"

static inline json_object *json_checked(json_object *value)
{
	if (!value)
		die("out of memory");
	return value;
}

/* object[key] = value; a NULL value is JSON's null. */
static inline void json_add(json_object *object, const char *key, json_object *value)
{
	if (json_object_object_add(object, key, value) < 0)
		die("out of memory");
}

static inline void json_append(json_object *array, json_object *value)
{
	if (json_object_array_add(array, value) < 0)
		die("out of memory");
}

/*
 * JSON text is UTF-8, while commit subjects and ref names are bytes:
 * what is not UTF-8 becomes U+FFFD, so that the document always parses.
 */
static inline json_object *json_text(const char *s)
{
	char *valid = rolling_utf8_sanitize(s);
	json_object *value;

	if (!valid)
		die("out of memory");
	value = json_checked(json_object_new_string(valid));
	free(valid);
	return value;
}

/* json_text(s), or null for NULL. */
static inline json_object *json_text_or_null(const char *s)
{
	return s ? json_text(s) : NULL;
}

/* The full hex id. */
static inline json_object *json_oid(const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	return json_checked(json_object_new_string(git_oid_tostr(hex, sizeof(hex), oid)));
}

static inline json_object *json_boolean(int value)
{
	return json_checked(json_object_new_boolean(value));
}

static inline json_object *json_size(size_t value)
{
	return json_checked(json_object_new_int64((int64_t)value));
}

/* The names of the hazards (rolling_repo_hazards()), as an array. */
static inline json_object *json_hazards(unsigned hazards)
{
	json_object *list = json_checked(json_object_new_array());
	const char *name;

	while ((name = rolling_repo_hazard_next(&hazards)))
		json_append(list, json_text(name));
	return list;
}

/*
 * Print a --json document on stdout, as every command prints one
 * (indented, "/" not escaped), and free it.
 */
static inline void json_print_document(json_object *root)
{
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

#endif
