#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "strvec.h"
#include "alloc.h"

/* Take `s` (NULL when making it ran out of memory) as the last string. */
static int push_owned(struct rolling_strvec *vec, char *s)
{
	if (vec->oom || !s || ALLOC_GROW(vec->v, vec->nr + 2, vec->alloc) < 0) {
		free(s);
		vec->oom = 1;
		return rolling_error_nomem();
	}
	vec->v[vec->nr++] = s;
	vec->v[vec->nr] = NULL;
	return 0;
}

int rolling_strvec_push(struct rolling_strvec *vec, const char *s)
{
	return push_owned(vec, vec->oom ? NULL : strdup(s));
}

int rolling_strvec_pushv(struct rolling_strvec *vec, const char *const *list)
{
	int err = 0;

	while (*list && !err)
		err = rolling_strvec_push(vec, *list++);
	return err;
}

int rolling_strvec_pushl(struct rolling_strvec *vec, ...)
{
	const char *s;
	va_list ap;
	int err = 0;

	va_start(ap, vec);
	while ((s = va_arg(ap, const char *)) && !err)
		err = rolling_strvec_push(vec, s);
	va_end(ap);
	return err;
}

void rolling_strvec_release(struct rolling_strvec *vec)
{
	while (vec->nr)
		free(vec->v[--vec->nr]);
	free(vec->v);
	vec->v = NULL;
	vec->nr = vec->alloc = 0;
	vec->oom = 0;
}
