// SPDX-License-Identifier: GPL-2.0
/*
 * pace.c - absolute-deadline pacing math (see pace.h).
 */
#include "pace.h"

#define NSEC_PER_SEC	1000000000ull

void gen_pace_init(struct gen_pace *p, uint64_t t0, uint64_t num, uint64_t den)
{
	p->t0 = t0;
	p->num = num;
	p->den = den ? den : 1;
}

uint64_t gen_pace_due(const struct gen_pace *p, uint64_t k)
{
	unsigned __int128 off;

	if (!p->num)
		return p->t0;
	off = (unsigned __int128)k * NSEC_PER_SEC * p->den / p->num;
	return p->t0 + (uint64_t)off;
}

/*
 * due(k) <= now  <=>  floor(k * 1e9 * den / num) <= d, d = now - t0
 *               <=>  k * 1e9 * den < (d + 1) * num
 * so the count is ceil((d + 1) * num / (1e9 * den)).
 */
uint64_t gen_pace_count(const struct gen_pace *p, uint64_t now)
{
	unsigned __int128 a, b;

	if (now < p->t0 || !p->num)
		return 0;
	a = (unsigned __int128)(now - p->t0 + 1) * p->num;
	b = (unsigned __int128)NSEC_PER_SEC * p->den;
	return (uint64_t)((a + b - 1) / b);
}

uint64_t gen_pace_limit(const struct gen_pace *p, uint64_t end)
{
	if (end <= p->t0)
		return 0;
	return gen_pace_count(p, end - 1);
}

uint64_t gen_split(uint64_t total, unsigned int parts, unsigned int i)
{
	if (!parts)
		return 0;
	return total / parts + (i < total % parts);
}
