// SPDX-License-Identifier: GPL-2.0
/*
 * result.c - what "netcost run" keeps of a measurement: the target
 * checked before the run, the snapshot saved (or kept somewhere), meta.load
 * and the packet count set against the generator's.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result.h"
#include "snapshot.h"

/*
 * nc_result_save - write @m to @target.  When that fails, write it to a
 * rescue file next to @target ("TARGET.rescued-PID.json"), or else in
 * $TMPDIR (or /tmp), and put that path in @kept.  Returns 0 (@kept is
 * @target), or NC_EXIT_ERROR after printing why; @kept is "" when the data
 * could be kept nowhere.
 */
int nc_result_save(const struct nc_model *m, const char *target, char *kept,
		   size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char *copy;
	int ret;

	snprintf(kept, len, "%s", target);
	ret = nc_snapshot_save(m, target);
	if (!ret)
		return NC_EXIT_OK;
	if (strcmp(target, "-")) {
		snprintf(kept, len, "%s.rescued-%d.json", target, (int)getpid());
		if (!nc_snapshot_save(m, kept)) {
			nc_warn("the measurement is kept in %s", kept);
			return ret;
		}
	}
	copy = nc_xstrdup(target);
	snprintf(kept, len, "%s/%s.rescued-%d.json", tmp && *tmp ? tmp : "/tmp",
		 strcmp(target, "-") ? basename(copy) : "netcost", (int)getpid());
	free(copy);
	if (!nc_snapshot_save(m, kept)) {
		nc_warn("the measurement is kept in %s", kept);
		return ret;
	}
	nc_err("the measurement could not be saved anywhere");
	*kept = '\0';
	return ret;
}

/*
 * nc_result_check_target - fail early when the snapshot cannot be written
 * to @path: it must not be a folder, and its folder must exist and be
 * writable (the file itself is replaced).  @who prefixes the message.
 */
int nc_result_check_target(const char *who, const char *path)
{
	char *copy = nc_xstrdup(path);
	const char *dir = dirname(copy);
	struct stat st;
	int ret = NC_EXIT_OK;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		nc_err("%s: -o %s is a directory; name the snapshot file", who, path);
		ret = NC_EXIT_ERROR;
	} else if (access(dir, W_OK | X_OK)) {
		nc_err("%s: cannot write the snapshot into %s: %s", who, dir, strerror(errno));
		ret = NC_EXIT_ERROR;
	}
	free(copy);
	return ret;
}

/* nc_result_u64 - an integer member of a JSON object, 0 if absent */
static uint64_t nc_result_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

/*
 * nc_result_packets - the module's rx_packets against what reached the
 * sink's UDP layer: the datagrams it received plus those its receive
 * buffer dropped (both went into the stack; ARP, FINs and the REPORT add
 * a few), as JSON.  @snd and @snk are the children's JSON results (NULL:
 * none).
 */
json_t *nc_result_packets(const struct nc_model *m, json_t *snd, json_t *snk)
{
	uint64_t rx = nc_cpu_counter(m, &m->total, "rx_packets");
	json_t *drops = json_object_get(snk, "socket_drops");
	json_t *o;

	o = json_pack("{s:I, s:I}", "rx_packets", (json_int_t)rx, "tx_packets",
		      (json_int_t)nc_cpu_counter(m, &m->total, "tx_packets"));
	if (snd)
		json_object_set_new(o, "sender_messages",
				    json_integer((json_int_t)nc_result_u64(snd, "messages")));
	if (snk) {
		double got = nc_result_u64(snk, "messages") + nc_result_u64(snk, "socket_drops");

		json_object_set_new(o, "sink_messages",
				    json_integer((json_int_t)nc_result_u64(snk, "messages")));
		json_object_set_new(o, "sink_loss",
				    json_integer((json_int_t)nc_result_u64(snk, "loss")));
		json_object_set_new(o, "sink_socket_drops", json_incref(drops));
		json_object_set_new(o, "rx_minus_sink", json_integer((json_int_t)(rx - got)));
		if (got > 0)
			json_object_set_new(o, "rx_vs_sink_pct", json_real(100 * (rx - got) / got));
	}
	return o;
}

/* nc_result_print_packets - the packet line (nc_result_packets()) on @f */
void nc_result_print_packets(FILE *f, json_t *p)
{
	json_t *sent = json_object_get(p, "sender_messages");
	json_t *got = json_object_get(p, "sink_messages");
	json_t *drops = json_object_get(p, "sink_socket_drops");
	json_t *pct = json_object_get(p, "rx_vs_sink_pct");

	fprintf(f, "\npackets: rx_packets %llu (module, both NICs)",
		(unsigned long long)nc_result_u64(p, "rx_packets"));
	if (json_is_integer(sent))
		fprintf(f, "; sender sent %lld", (long long)json_integer_value(sent));
	if (json_is_integer(got))
		fprintf(f, "; sink received %lld (loss %llu)", (long long)json_integer_value(got),
			(unsigned long long)nc_result_u64(p, "sink_loss"));
	if (json_is_integer(drops))
		fprintf(f, " + %lld dropped at its socket", (long long)json_integer_value(drops));
	if (json_is_number(pct))
		fprintf(f, ":\n         rx_packets - that = %+lld (%+.2f%%; the FIN/REPORT exchange adds 2 a flow, ARP a few)",
			(long long)json_integer_value(json_object_get(p, "rx_minus_sink")),
			json_number_value(pct));
	fprintf(f, "\n\n");
}

/*
 * nc_result_load_json - meta.load of "netcost run": what ran (the options
 * @o, the generator's and the sink's arguments), for how long, and what
 * the sender @snd and the sink @snk said and used (their JSON results and
 * nc_child_to_json() over the @ncpus CPUs @cpus)
 */
json_t *nc_result_load_json(const struct nc_run_opts *o, double recorded_s, bool interrupted,
			    const struct nc_argv *gen, const struct nc_argv *sink,
			    const struct nc_child *snd, const struct nc_child *snk,
			    const int *cpus, int ncpus)
{
	json_t *j = json_object();
	char *s;

	json_object_set_new(j, "tool", json_string("netcost run"));
	json_object_set_new(j, "duration_s", json_real(o->duration));
	json_object_set_new(j, "recorded_s", json_real(recorded_s));
	json_object_set_new(j, "interrupted", json_boolean(interrupted));
	if (o->external) {
		json_object_set_new(j, "external", json_true());
		return j;
	}
	s = nc_argv_join(gen);
	json_object_set_new(j, "gen_args", json_string(s));
	free(s);
	s = nc_argv_join(sink);
	json_object_set_new(j, "sink_args", json_string(s));
	free(s);
	json_object_set_new(j, "sink_prefix", o->sink_prefix ?
			    json_string(o->sink_prefix) : json_null());
	json_object_set_new(j, "sender", snd->result ? json_incref(snd->result) : json_null());
	json_object_set_new(j, "sink", snk->result ? json_incref(snk->result) : json_null());
	json_object_set_new(j, "processes", json_pack("{s:o, s:o}",
		"sender", nc_child_to_json(snd, cpus, ncpus),
		"sink", nc_child_to_json(snk, cpus, ncpus)));
	return j;
}
