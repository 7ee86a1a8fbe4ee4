// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - qprof, a qemu TCG plugin that counts the guest instructions
 * executed at every code address: an exact instruction profile of the
 * whole guest, kernel and module included, that changes nothing the
 * guest sees (under -icount, guest time still follows its own
 * instructions only).
 *
 * Each translated block gets an inline add of its instruction count to
 * the counter of its start address (a block ends at a branch, so it lies
 * in one function).  Windows: the guest's nc-qprof-mark runs a block at
 * QPROF_MARK_START (every counter to 0) or QPROF_MARK_STOP (write
 * DIR/window-N.prof, N = 1, 2, ...).  Without a window, DIR/exit.prof at
 * qemu's exit holds everything.
 *
 * A .prof file: "# qprof window N" and "total INSNS" (every address),
 * then "ADDR INSNS" per block start in kernel space (ADDR in hex).
 * bench/qprof/report maps them to symbols with the guest's kallsyms.
 *
 *   qemu-system-x86_64 ... -plugin build/qprof/qprof.so,out=DIR
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

struct site {
	uint64_t vaddr;
	uint64_t insns;			/* the inline add's target */
	struct site *next;		/* hash chain */
};

#define HASH_BITS	20
#define CHUNK		8192

static struct site *table[1u << HASH_BITS];
static struct site **all;		/* every site, in chunks (never moved) */
static size_t nall, cap;
static char outdir[4096] = ".";
static unsigned int window;

static unsigned int hash(uint64_t v)
{
	return (unsigned int)((v * 0x9e3779b97f4a7c15ULL) >> (64 - HASH_BITS));
}

static struct site *site_of(uint64_t vaddr)
{
	unsigned int h = hash(vaddr);
	struct site *s;

	for (s = table[h]; s; s = s->next)
		if (s->vaddr == vaddr)
			return s;
	if (nall % CHUNK == 0) {
		if (nall / CHUNK == cap) {
			cap = cap ? 2 * cap : 64;
			all = realloc(all, cap * sizeof(*all));
			if (!all)
				abort();
		}
		all[nall / CHUNK] = calloc(CHUNK, sizeof(struct site));
		if (!all[nall / CHUNK])
			abort();
	}
	s = &all[nall / CHUNK][nall % CHUNK];
	nall++;
	s->vaddr = vaddr;
	s->next = table[h];
	table[h] = s;
	return s;
}

static void zero(void)
{
	size_t i;

	for (i = 0; i < nall; i++)
		all[i / CHUNK][i % CHUNK].insns = 0;
}

static void dump(const char *name)
{
	char path[4200], tmp[4300], msg[4400];
	uint64_t total = 0;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(msg, sizeof(msg), "qprof: %s: %s\n", tmp, strerror(errno));
		qemu_plugin_outs(msg);
		return;
	}
	for (i = 0; i < nall; i++)
		total += all[i / CHUNK][i % CHUNK].insns;
	fprintf(f, "# qprof %s\ntotal %" PRIu64 "\n", name, total);
	for (i = 0; i < nall; i++) {
		const struct site *s = &all[i / CHUNK][i % CHUNK];

		if (s->insns && s->vaddr >= 0xffff800000000000ULL)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", s->vaddr, s->insns);
	}
	if (fclose(f) || rename(tmp, path)) {
		snprintf(msg, sizeof(msg), "qprof: %s: %s\n", path, strerror(errno));
		qemu_plugin_outs(msg);
	}
}

static void mark_start(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	zero();
}

static void mark_stop(unsigned int vcpu, void *udata)
{
	char name[64];

	(void)vcpu;
	(void)udata;
	snprintf(name, sizeof(name), "window-%u.prof", ++window);
	dump(name);
	zero();
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct site *s = site_of(va);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &s->insns, qemu_plugin_tb_n_insns(tb));
	if (va == QPROF_MARK_START)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
	else if (va == QPROF_MARK_STOP)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_stop, QEMU_PLUGIN_CB_NO_REGS, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (!window)
		dump("exit.prof");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const struct qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			snprintf(outdir, sizeof(outdir), "%s", argv[i] + 4);
		} else {
			fprintf(stderr, "qprof: unknown argument '%s' (out=DIR)\n", argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
