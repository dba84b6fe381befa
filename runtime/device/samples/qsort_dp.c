// SPDX-License-Identifier: MIT
/* Quicksort that launches a child per partition (samples.h, struct qsort_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

static void selection_sort(uint32_t *d, int32_t left, int32_t right)
{
	for (int32_t i = left; i < right; i++) {
		int32_t m = i;

		for (int32_t j = i + 1; j <= right; j++)
			if (d[j] < d[m])
				m = j;
		uint32_t t = d[i];
		d[i] = d[m];
		d[m] = t;
	}
}

void qsort_dp(void);
static void sort_range(const struct qsort_params *p, int32_t left, int32_t right, uint32_t depth);

/* Sort [left, right] in a child, or here if no child can be had. */
static void sort_side(const struct qsort_params *p, int32_t left, int32_t right, uint32_t depth)
{
	uint32_t slot, *d = (uint32_t *)(uintptr_t)p->data;
	ppu_dev_dim3 one = { 1, 1, 1 };

	if (left >= right)
		return;
	if (p->flat) {
		sort_range(p, left, right, depth + 1);
		return;
	}
	slot = ppu_atomic_add((uint32_t *)(uintptr_t)p->next, 1);
	if (slot < p->pool_slots) {
		uint8_t *mem = (uint8_t *)(uintptr_t)(p->pool + slot * QSORT_SLOT);
		struct qsort_params *cp = (struct qsort_params *)mem;

		*cp = *p;
		cp->left = left;
		cp->right = right;
		if (ppu_launch(mem + 64, QSORT_SLOT - 64, qsort_dp, one, one, cp, 256) ==
		    PPU_ECALL_STATUS_OK)
			return;
	}
	ppu_atomic_add((uint32_t *)(uintptr_t)p->refused, 1);
	selection_sort(d, left, right);
}

/* At nesting depth @depth: small ranges and the last level sort in place. */
static void sort_range(const struct qsort_params *p, int32_t left, int32_t right, uint32_t depth)
{
	uint32_t *d = (uint32_t *)(uintptr_t)p->data;
	int32_t l = left, r = right;
	uint32_t pivot;

	if (right - left < QSORT_SELECTION || depth >= ppu_maxdepth()) {
		selection_sort(d, left, right);
		return;
	}
	pivot = d[(left + right) / 2];
	while (l <= r) {
		while (d[l] < pivot)
			l++;
		while (d[r] > pivot)
			r--;
		if (l <= r) {
			uint32_t t = d[l];

			d[l++] = d[r];
			d[r--] = t;
		}
	}
	/* the partition's stores are before the launches, so the children see them */
	sort_side(p, left, r, depth);
	sort_side(p, l, right, depth);
}

PPU_KERNEL(qsort_dp, struct qsort_params)
{
	sort_range(params, params->left, params->right, ppu_depth());
}
