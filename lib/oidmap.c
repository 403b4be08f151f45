#include <stdlib.h>
#include <string.h>
#include "oidmap.h"
#include "error.h"

static size_t slot_of(const struct rolling_oidmap *map, const git_oid *oid)
{
	size_t hash;

	memcpy(&hash, oid->id, sizeof(hash));
	return hash & (map->size - 1);
}

static struct rolling_oidmap_entry *find_slot(const struct rolling_oidmap *map,
					      const git_oid *oid)
{
	size_t i = slot_of(map, oid);

	while (map->entries[i].used && !git_oid_equal(&map->entries[i].oid, oid))
		i = (i + 1) & (map->size - 1);
	return &map->entries[i];
}

/*
 * Twice the slots, every entry placed anew: not ALLOC_GROW's job, since
 * an entry's slot depends on the table's size (a power of two).
 */
static int rehash(struct rolling_oidmap *map)
{
	struct rolling_oidmap old = *map;
	size_t i;

	map->size = old.size ? old.size * 2 : 64;
	map->entries = calloc(map->size, sizeof(*map->entries));
	if (!map->entries) {
		*map = old;
		return rolling_error_nomem();
	}
	for (i = 0; i < old.size; i++)
		if (old.entries[i].used)
			*find_slot(map, &old.entries[i].oid) = old.entries[i];
	free(old.entries);
	return 0;
}

int rolling_oidmap_put(struct rolling_oidmap *map, const git_oid *oid, size_t value)
{
	struct rolling_oidmap_entry *entry;

	/* Keep the load under one half so probes stay short. */
	if ((map->count + 1) * 2 > map->size && rehash(map) < 0)
		return ROLLING_ERROR;
	entry = find_slot(map, oid);
	if (!entry->used) {
		entry->used = 1;
		git_oid_cpy(&entry->oid, oid);
		map->count++;
	}
	entry->value = value;
	return 0;
}

int rolling_oidmap_get(const struct rolling_oidmap *map, const git_oid *oid, size_t *value)
{
	const struct rolling_oidmap_entry *entry;

	if (!map->size)
		return 0;
	entry = find_slot(map, oid);
	if (!entry->used)
		return 0;
	*value = entry->value;
	return 1;
}

void rolling_oidmap_release(struct rolling_oidmap *map)
{
	free(map->entries);
	memset(map, 0, sizeof(*map));
}
