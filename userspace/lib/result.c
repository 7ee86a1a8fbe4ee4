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
	char err[512];
	int ret = NC_EXIT_OK;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		nc_err("%s: -o %s is a directory; name the snapshot file", who, path);
		ret = NC_EXIT_ERROR;
	} else if (nc_write_check(path, err, sizeof(err))) {
		nc_err("%s: -o %s", who, err);	/* a symlink or a device: refused now, not at the end */
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

/*
 * nc_result_closure_child - the closure line of a process run started:
 * its utime + stime (wait4(): exec to exit, wrappers included), split over
 * the CPUs by its task clocks when perf counted them, its context
 * switches, and what its own JSON result says it used.  NULL when the
 * closure has no room.
 */
struct nc_cl_line *nc_result_closure_child(struct nc_closure *cl, const char *name,
					   const struct nc_child *ch)
{
	json_t *cpu = json_object_get(ch->result, "cpu_s");
	struct nc_cl_line *l;

	l = nc_closure_add_process(cl, name, nc_rusage_cpu_s(&ch->ru),
				   ch->perf_ok ? ch->task_ns : NULL);
	if (!l)
		return NULL;
	l->switches = ch->ru.ru_nvcsw + ch->ru.ru_nivcsw;
	snprintf(l->what, sizeof(l->what), "utime %.3f + stime %.3f s%s",
		 nc_tv_s(ch->ru.ru_utime), nc_tv_s(ch->ru.ru_stime),
		 json_is_number(cpu) ? "" : " (no JSON result)");
	if (json_is_number(cpu))
		snprintf(l->what + strlen(l->what), sizeof(l->what) - strlen(l->what),
			 "; its JSON: %.3f s", json_number_value(cpu));
	return l;
}

/*
 * nc_result_closure_self - the closure line of the caller's main thread:
 * what RUSAGE_THREAD grew by from @ru0 to @ru1, split by the task clocks
 * of @self when perf counted them
 */
struct nc_cl_line *nc_result_closure_self(struct nc_closure *cl, const char *name,
					  const struct nc_child *self, const struct rusage *ru0,
					  const struct rusage *ru1)
{
	struct nc_cl_line *l;

	l = nc_closure_add_process(cl, name, nc_rusage_cpu_s(ru1) - nc_rusage_cpu_s(ru0),
				   self->perf_ok ? self->task_ns : NULL);
	if (!l)
		return NULL;
	snprintf(l->what, sizeof(l->what), "RUSAGE_THREAD");
	l->switches = ru1->ru_nvcsw + ru1->ru_nivcsw - ru0->ru_nvcsw - ru0->ru_nivcsw;
	return l;
}

/*
 * nc_result_warn - what a reader of the measurement should know, on
 * stderr: a child run had to stop (not after Ctrl-C), a sender that got no
 * report from its sink, a recording cut short after @recorded_s
 */
void nc_result_warn(const struct nc_child *snd, const struct nc_child *snk, bool interrupted,
		    double recorded_s)
{
	const struct nc_child *both[2] = { snk, snd };

	for (int c = 0; c < 2; c++)
		if (both[c]->int_ns && !interrupted)
			nc_warn("run: the %s overstayed and was stopped%s", both[c]->role,
				both[c]->killed ? " with SIGKILL" : "");
	if (snd->result && json_is_null(json_object_get(snd->result, "receiver")))
		nc_warn("run: the sender got no report from the sink (%s)",
			json_string_value(json_object_get(snd->result, "receiver_missing")) ?: "?");
	if (interrupted)
		nc_warn("run: interrupted after %.1f s; the snapshot covers that much", recorded_s);
}
