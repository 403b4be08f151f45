#ifndef ROLLING_ALLOC_H
#define ROLLING_ALLOC_H

#include <stdlib.h>
#include "error.h"

/*
 * The next size of an array that holds `alloc` and must hold `nr`:
 * half as big again (at least 16), or `nr` if that is more.
 */
static inline size_t rolling_alloc_nr(size_t alloc, size_t nr)
{
	size_t grown = alloc + alloc / 2 + 16;

	return grown > nr ? grown : nr;
}

/*
 * Grow `array`, with room for `alloc` elements, so that it holds at least
 * `nr`.  Evaluates to 0, or to rolling_error_nomem() leaving the array as
 * it was:
 *
 *	if (ALLOC_GROW(list->items, list->nr + 1, list->alloc) < 0)
 *		return -1;
 *	list->items[list->nr++] = item;
 *
 * `alloc` is a size_t; the caller's arguments are evaluated more than once.
 */
#define ALLOC_GROW(array, nr, alloc) __extension__ ({ \
	int alloc_grow_err_ = 0; \
	if ((nr) > (alloc)) { \
		size_t alloc_grow_nr_ = rolling_alloc_nr((alloc), (nr)); \
		void *alloc_grow_p_ = reallocarray((array), alloc_grow_nr_, sizeof(*(array))); \
		if (alloc_grow_p_) { \
			(array) = alloc_grow_p_; \
			(alloc) = alloc_grow_nr_; \
		} else { \
			alloc_grow_err_ = rolling_error_nomem(); \
		} \
	} \
	alloc_grow_err_; \
})

#endif
