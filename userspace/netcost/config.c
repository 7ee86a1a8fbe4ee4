// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - "netcost config [show] [-j]" and "netcost config set
 * [nic-irqs auto|LIST] [cpus LIST] [groups G,..|all|none] [recording on|off]
 * [sample N]":
 * what the module records, through CONFIG_GET and CONFIG_SET.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "netcost_names.h"
#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* nc_groups_str - a "groups" array as "irq,softirq" ("all", "none") */
void nc_groups_str(json_t *groups, char *buf, size_t len)
{
	size_t i, off = 0;
	json_t *g;

	buf[0] = '\0';
	if (json_array_size(groups) == ARRAY_SIZE(netcost_group_names)) {
		snprintf(buf, len, "all");
		return;
	}
	json_array_foreach(groups, i, g) {
		if (off >= len)
			break;
		if (json_is_string(g))
			off += snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					json_string_value(g));
		else
			off += snprintf(buf + off, len - off, "%s0x%llx", i ? "," : "",
					(unsigned long long)json_integer_value(g));
	}
	if (!json_array_size(groups))
		snprintf(buf, len, "none");
}

/*
 * nc_sample_str - a config's "sample" (missing in files before 0.15.0:
 * every packet) in words
 */
const char *nc_sample_str(json_t *sample, char *buf, size_t len)
{
	json_int_t n = json_is_integer(sample) ? json_integer_value(sample) : 1;

	if (n <= 1)
		snprintf(buf, len, "1 (every packet timed)");
	else
		snprintf(buf, len, "%lld (rx_skb and tx_xmit timed on 1 packet in %lld)",
			 (long long)n, (long long)n);
	return buf;
}

/* nc_print_config - the text form of a config object, each line @indent-ed */
void nc_print_config(json_t *cfg, const char *indent)
{
	bool autoirq = json_is_true(json_object_get(cfg, "nic_irqs_auto"));
	json_t *irqs = json_object_get(cfg, "nic_irqs"), *v;
	char groups[128], sample[96];
	size_t i;

	printf("%snic-irqs:   %s", indent, autoirq ? "auto" : "");
	json_array_foreach(irqs, i, v)
		printf("%s%lld", i ? "," : autoirq ? " (found " : "",
		       (long long)json_integer_value(v));
	if (autoirq && json_array_size(irqs))
		printf(")");
	if (!autoirq && !json_array_size(irqs))
		printf("none");
	nc_groups_str(json_object_get(cfg, "groups"), groups, sizeof(groups));
	printf("\n%scpus:       %s\n%sgroups:     %s\n%srecording:  %s\n",
	       indent, json_string_value(json_object_get(cfg, "cpus")),
	       indent, groups, indent,
	       json_is_true(json_object_get(cfg, "recording")) ? "on" : "off");
	printf("%ssample:     %s\n", indent, nc_sample_str(json_object_get(cfg, "sample"),
						       sample, sizeof(sample)));
}

/* nc_config_show - "config [show] [-j]" */
static int nc_config_show(int argc, char **argv)
{
	struct nc_config cfg;
	struct nc_nl nl;
	bool json;
	json_t *o;
	int ret;

	ret = nc_opt_json(argc, argv, &json, 0, 0);
	if (ret)
		return ret;
	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	ret = nc_fetch_config(&nl, &cfg);
	nc_nl_close(&nl);
	if (ret)
		return ret;
	o = nc_config_to_json(&cfg);
	if (json)
		ret = nc_json_print(stdout, o, 2);
	else
		nc_print_config(o, "");
	json_decref(o);
	return ret;
}

/*
 * nc_parse_groups - "irq,net", "all" or "none" into NETCOST_GROUP_* bits
 * ("none": every hook detached, nothing measured and nothing run).
 * Returns 0, or -1 on a name that is no group.
 */
static int nc_parse_groups(const char *s, uint32_t *groups)
{
	char *list = nc_xstrdup(s), *save = NULL, *name;
	int ret = 0;

	*groups = 0;
	if (!strcmp(s, "all")) {
		*groups = NETCOST_GROUP_ALL;
		goto out;
	}
	if (!strcmp(s, "none"))
		goto out;
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		unsigned int bit;

		for (bit = 0; bit < ARRAY_SIZE(netcost_group_names); bit++)
			if (!strcmp(name, netcost_group_names[bit]))
				break;
		if (bit == ARRAY_SIZE(netcost_group_names)) {
			ret = -1;
			goto out;
		}
		*groups |= 1u << bit;
	}
	if (!*groups)
		ret = -1;
out:
	free(list);
	return ret;
}

/*
 * nc_parse_irqs - "24,25" into @irqs.  Returns the number of IRQs, or -1
 * on anything that is not a comma-separated list of IRQ numbers.
 */
static int nc_parse_irqs(const char *s, uint32_t *irqs, unsigned int max)
{
	char *list = nc_xstrdup(s), *save = NULL, *tok;
	unsigned int n = 0;
	int ret = 0;

	if (!*s || s[strlen(s) - 1] == ',')
		ret = -1;
	for (tok = strtok_r(list, ",", &save); !ret && tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max || nc_parse_u32(tok, &irqs[n]))
			ret = -1;
		n++;
	}
	free(list);
	return ret ? -1 : (int)n;
}

/*
 * nc_config_set - "config set KEY VALUE ...": every pair is checked here,
 * before the module sees any, and all go in one CONFIG_SET so that the
 * change is all or nothing.
 */
static int nc_config_set(int argc, char **argv)
{
	uint32_t irqs[NC_MAX_NIC_IRQS], groups = 0;
	const char *nic = NULL, *cpus = NULL, *grp = NULL, *rec = NULL, *smp = NULL;
	unsigned long sample = 0;
	char *end;
	bool cpuset[NC_MAX_CPUS];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nc_nl nl;
	int i, nr_irqs = -1, ret;

	if (argc < 3)
		return nc_usage_err("config set: nothing to set");
	for (i = 1; i < argc; i += 2) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		const char **slot;

		if (!strcmp(key, "nic-irqs"))
			slot = &nic;
		else if (!strcmp(key, "cpus"))
			slot = &cpus;
		else if (!strcmp(key, "groups"))
			slot = &grp;
		else if (!strcmp(key, "recording"))
			slot = &rec;
		else if (!strcmp(key, "sample"))
			slot = &smp;
		else
			return nc_usage_err("config set: unknown setting '%s'", key);
		if (!val)
			return nc_usage_err("config set: %s needs a value", key);
		if (*slot)
			return nc_usage_err("config set: %s given twice", key);
		*slot = val;
	}
	if (nic && strcmp(nic, "auto")) {
		nr_irqs = nc_parse_irqs(nic, irqs, NC_MAX_NIC_IRQS);
		if (nr_irqs < 0)
			return nc_usage_err("config set: nic-irqs wants auto or IRQ numbers (24,25), not '%s'", nic);
	}
	if (cpus && nc_parse_cpulist(cpus, cpuset, NC_MAX_CPUS))
		return nc_usage_err("config set: bad CPU list '%s'", cpus);
	if (grp && nc_parse_groups(grp, &groups))
		return nc_usage_err("config set: groups wants irq,softirq,net,sched,syscall,wait, all or none, not '%s'", grp);
	if (rec && strcmp(rec, "on") && strcmp(rec, "off"))
		return nc_usage_err("config set: recording wants on or off, not '%s'", rec);
	if (smp) {
		errno = 0;
		sample = strtoul(smp, &end, 10);
		if (errno || end == smp || *end || smp[0] == '-' || sample < 1 || sample > 65536)
			return nc_usage_err("config set: sample wants N from 1 (every packet) to 65536, not '%s'", smp);
	}

	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	nlh = nc_nl_request(&nl, NETCOST_CMD_CONFIG_SET, 0);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
	if (nic)
		mnl_attr_put_u8(nlh, NETCOST_CFG_A_NIC_IRQS_AUTO, nr_irqs < 0);
	for (i = 0; i < nr_irqs; i++)
		mnl_attr_put_u32(nlh, NETCOST_CFG_A_NIC_IRQ, irqs[i]);
	if (cpus)
		mnl_attr_put_strz(nlh, NETCOST_CFG_A_CPUMASK, cpus);
	if (grp)
		mnl_attr_put_u32(nlh, NETCOST_CFG_A_GROUPS, groups);
	if (rec)
		mnl_attr_put_u8(nlh, NETCOST_CFG_A_RECORDING, !strcmp(rec, "on"));
	if (smp)
		mnl_attr_put_u32(nlh, NETCOST_CFG_A_SAMPLE, (uint32_t)sample);
	mnl_attr_nest_end(nlh, nest);
	ret = nc_nl_talk(&nl, nlh, NULL, NULL);
	nc_nl_close(&nl);
	return ret;
}

/* cmd_config - "netcost config [show|set ...]" */
int cmd_config(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "set"))
		return nc_config_set(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "show"))
		return nc_config_show(argc - 1, argv + 1);
	if (argc >= 2 && argv[1][0] != '-')
		return nc_usage_err("config: unknown subcommand '%s' (show or set)", argv[1]);
	return nc_config_show(argc, argv);
}
