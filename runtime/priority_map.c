// SPDX-License-Identifier: MIT
/*
 * Stream priority -> device priority mapping for dynamic parallelism (US 9575760); see
 * priority_map.h for the technique.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "priority_map.h"

int ppu_prio_map_init(struct ppu_prio_map *m, unsigned int num_device_prios, unsigned int max_depth,
		      int stream_lo, int stream_hi, enum ppu_prio_embodiment embodiment)
{
	/* 64-bit: hi - lo + 1 overflows int for a range such as [INT_MIN, INT_MAX] */
	long long count = (long long)stream_hi - stream_lo + 1;
	unsigned int levels;

	if (!m || !num_device_prios || !max_depth || max_depth > num_device_prios ||
	    stream_lo > stream_hi)
		return -EINVAL;
	/* unsigned, so an out-of-range negative value is caught too */
	if ((unsigned int)embodiment > PPU_PRIO_SHARE_LOWEST)
		return -EINVAL;

	levels = num_device_prios / max_depth;
	m->num_device_prios = num_device_prios;
	m->max_depth = max_depth;
	m->levels = levels;
	m->used = count < levels ? (unsigned int)count : levels;
	m->stream_lo = stream_lo;
	m->stream_hi = stream_hi;
	m->embodiment = embodiment;
	return 0;
}

unsigned int ppu_prio_map_levels(const struct ppu_prio_map *m)
{
	return m ? m->levels : 0;
}

unsigned int ppu_prio_map_level(const struct ppu_prio_map *m, int stream_prio)
{
	long long top, dist;

	if (!m)
		return 0;
	if (stream_prio < m->stream_lo)
		stream_prio = m->stream_lo;
	if (stream_prio > m->stream_hi)
		stream_prio = m->stream_hi;

	top = m->used - 1;
	if (m->embodiment == PPU_PRIO_SHARE_HIGHEST) {
		dist = (long long)stream_prio - m->stream_lo;
		return dist < top ? (unsigned int)dist : (unsigned int)top;
	}
	/* counted down from hi, so everything below the last distinct level lands on level 0 */
	dist = (long long)m->stream_hi - stream_prio;
	return dist < top ? (unsigned int)(top - dist) : 0;
}

/* The device priority of level 0: the map's anchor at the bottom or the top of the device range. */
static unsigned int base_device(const struct ppu_prio_map *m)
{
	if (m->embodiment == PPU_PRIO_SHARE_HIGHEST)
		return 0;
	return m->num_device_prios - m->used * m->max_depth;
}

unsigned int ppu_prio_map_device(const struct ppu_prio_map *m, int stream_prio)
{
	if (!m)
		return 0;
	return base_device(m) + ppu_prio_map_level(m, stream_prio) * m->max_depth;
}

int ppu_prio_map_default_stream(const struct ppu_prio_map *m)
{
	return m ? m->stream_lo : 0;
}

unsigned int ppu_prio_map_default_device(const struct ppu_prio_map *m)
{
	return ppu_prio_map_device(m, ppu_prio_map_default_stream(m));
}

int ppu_prio_map_child(const struct ppu_prio_map *m, unsigned int parent_prio,
		       unsigned int parent_depth, unsigned int *child_prio,
		       unsigned int *child_depth)
{
	if (!m || !child_prio || !child_depth || !parent_depth ||
	    parent_prio >= m->num_device_prios)
		return -EINVAL;
	/* the nesting limit is what the device enforces; report it before the priority ceiling */
	if (parent_depth >= m->max_depth)
		return -E2BIG;
	/* only reachable from a parent priority the map never hands out at this depth */
	if (parent_prio + 1 >= m->num_device_prios)
		return -EINVAL;
	*child_prio = parent_prio + 1;
	*child_depth = parent_depth + 1;
	return 0;
}

/* Appends one table line like snprintf at offset *total, which keeps counting once buf is full. */
static int append_line(const struct ppu_prio_map *m, char *buf, size_t len, int *total,
		       long long first, long long last)
{
	unsigned int dev = ppu_prio_map_device(m, (int)first);
	size_t off = (size_t)*total;
	char streams[48], kids[32];
	int n;

	if (last > first)
		snprintf(streams, sizeof(streams), "%lld..%lld", first, last);
	else
		snprintf(streams, sizeof(streams), "%lld", first);
	if (m->max_depth > 1)
		snprintf(kids, sizeof(kids), "children up to %u", dev + m->max_depth - 1);
	else
		snprintf(kids, sizeof(kids), "no children");
	n = snprintf(off < len ? buf + off : NULL, off < len ? len - off : 0, "%s -> %u (%s)\n",
		     streams, dev, kids);
	if (n < 0 || n > INT_MAX - *total)
		return -EOVERFLOW;
	*total += n;
	return 0;
}

int ppu_prio_map_format(const struct ppu_prio_map *m, char *buf, size_t len)
{
	long long p, end;
	unsigned int level;
	int total = 0, ret;

	if (!m || (len && !buf))
		return -EINVAL;
	if (len)
		buf[0] = '\0';

	/* one line per level, never one iteration per stream priority: the range may span 2^32 */
	for (p = m->stream_lo; p <= m->stream_hi; p = end + 1) {
		level = ppu_prio_map_level(m, (int)p);
		end = p;
		if (m->embodiment == PPU_PRIO_SHARE_HIGHEST && level == m->used - 1)
			end = m->stream_hi;
		else if (m->embodiment == PPU_PRIO_SHARE_LOWEST && level == 0)
			end = (long long)m->stream_hi - (m->used - 1);
		ret = append_line(m, buf, len, &total, p, end);
		if (ret)
			return ret;
	}
	return total;
}
