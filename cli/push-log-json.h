#ifndef ROLLING_PUSH_LOG_JSON_H
#define ROLLING_PUSH_LOG_JSON_H

/*
 * The "push_log" object of verify's and status's --json: what the push
 * log said about a tip (push-log.h).  Header-only, as json-writer.h, for
 * the commands that link json-c.
 */
#include "json-writer.h"
#include "../lib/push-log.h"

static inline json_object *json_push_entry(const struct rolling_push_log_entry *e)
{
	json_object *object = json_checked(json_object_new_object());
	char date[32];

	json_add(object, "epoch", json_size(e->epoch));
	json_add(object, "log_commit", json_oid(&e->commit));
	json_add(object, "old", json_oid(&e->old_id));
	json_add(object, "new", json_oid(&e->new_id));
	json_add(object, "date", e->time < 0 ? NULL :
		 json_text(rolling_push_log_date(date, sizeof(date), e->time)));
	json_add(object, "time", e->time < 0 ? NULL :
		 json_checked(json_object_new_int64(e->time)));
	return object;
}

static inline json_object *json_push_log(const struct rolling_push_log_options *o,
					 const struct rolling_push_log_result *r)
{
	json_object *object, *failures;
	size_t i;

	object = json_checked(json_object_new_object());
	failures = json_checked(json_object_new_array());
	json_add(object, "log", json_text(o->log));
	json_add(object, "repo", json_text(o->repo_name));
	json_add(object, "ref", json_text(o->ref));
	json_add(object, "published", json_boolean(r->published));
	json_add(object, "signer", json_text_or_null(r->signer));
	json_add(object, "fingerprint", json_text_or_null(r->fingerprint));
	json_add(object, "push", r->tip_found ? json_push_entry(&r->tip_entry) : NULL);
	json_add(object, "newest", r->has_newest ? json_push_entry(&r->newest) : NULL);
	json_add(object, "is_newest", json_boolean(r->tip_found && r->has_newest && !r->later));
	json_add(object, "later_pushes", json_size(r->later));
	json_add(object, "checked_from", r->has_checked ? json_oid(&r->checked) : NULL);
	json_add(object, "records_read", json_size(r->records_read));
	for (i = 0; i < r->failures_nr; i++) {
		json_object *f = json_checked(json_object_new_object());

		json_add(f, "check", json_text(rolling_push_log_check_name(r->failures[i].check)));
		json_add(f, "message", json_text(r->failures[i].message));
		json_append(failures, f);
	}
	json_add(object, "failures", failures);
	return object;
}

#endif
