// SPDX-License-Identifier: GPL-2.0
/*
 * sink.c - "netcost-gen sink": receive, count, and say what it cost.
 *
 * The sink plays the "monitor" process of the original report: one
 * thread receiving with recvmmsg(), optionally at an RT priority and with
 * some busy work per packet (--work).  It counts messages, loss,
 * reordering and duplicates per flow from the payload header (proto.h),
 * and reports its own CPU time per packet in ns and in TSC cycles.  It
 * stops after -l seconds, after --idle-timeout seconds without traffic,
 * on SIGINT, or when a FIN has arrived for every flow of the sender,
 * which it then answers with a REPORT.
 */
#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "flow.h"
#include "gen.h"
#include "proto.h"
#include "opts.h"
#include "util.h"

static struct gen_cfg cfg;

#define MODE		"sink"
#define BUF_SIZE	65536		/* per message: any UDP payload */
#define TICK_MS		100		/* longest block in recvmmsg/poll */

/* What the sink has counted so far. */
struct sink_state {
	struct gen_flow *flow[GEN_MAX_FLOWS];	/* allocated when first seen */
	unsigned int nseen;			/* flows allocated */
	uint64_t messages, bytes;		/* DATA */
	uint64_t foreign;			/* datagrams without our header */
	uint64_t work_cycles;			/* busy work per DATA packet */
	uint64_t t_first, t_last;		/* ns: first and last DATA batch */
	/* from the sender's FINs */
	unsigned int fins, fin_flows;		/* FINs seen, flows announced */
	struct gen_fin fin;			/* the last one */
	uint64_t fin_elapsed_ns;		/* the longest sender's */
	uint64_t fin_messages, fin_errors;	/* summed over the flows' FINs */
	struct fin_src *src[GEN_MAX_FLOWS];	/* where each flow's FIN came from */
};

/* Where a FIN came from: the REPORT goes back there. */
struct fin_src {
	unsigned int sock;
	socklen_t len;
	struct sockaddr_storage addr;
};

static int *fds;
static unsigned int nfds;
static struct sink_state st;
static uint8_t *bufs;
static struct mmsghdr *msgs;
static struct iovec *iov;
static struct sockaddr_storage *from;

static void parse_opts(int argc, char **argv)
{
	gen_cfg_parse(&cfg, GEN_SINK, argc, argv);
	if (cfg.dport_per_flow) {
		if (!cfg.port)
			gen_usage_error(MODE, "--dport-per-flow needs a fixed -p PORT");
		if (cfg.port + cfg.flows - 1 > 65535)
			gen_usage_error(MODE, "--dport-per-flow: ports %u..%u do not fit",
					cfg.port, cfg.port + cfg.flows - 1);
		if (cfg.flows > 4096)
			gen_usage_error(MODE, "--dport-per-flow: at most 4096 sockets");
	} else if (cfg.flows > 1) {
		/* flows are told apart by the header; one port is enough */
		cfg.flows = 1;
	}
	if (cfg.family == AF_UNSPEC && cfg.host && strchr(cfg.host, ':'))
		cfg.family = AF_INET6;
	if (cfg.ready_file)
		gen_ready_file_check(MODE, cfg.ready_file);
}

/* open_sockets - bind one socket per listening port. */
static void open_sockets(void)
{
	struct sockaddr_storage ss;

	nfds = cfg.dport_per_flow ? cfg.flows : 1;
	fds = calloc(nfds, sizeof(*fds));
	if (!fds)
		error(1, errno, "calloc");
	for (unsigned int i = 0; i < nfds; i++) {
		uint16_t port = cfg.port ? cfg.port + i : 0;
		socklen_t alen = gen_resolve(cfg.host, port, cfg.family, &ss);
		struct timeval tv = { .tv_usec = TICK_MS * 1000 };

		fds[i] = socket(ss.ss_family, SOCK_DGRAM, 0);
		if (fds[i] < 0)
			error(1, errno, "socket");
		/*
		 * No SO_REUSEADDR: for UDP it would let a second sink bind the
		 * busy port and silently take the traffic from the first.
		 */
		if (cfg.sockbuf && setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF,
					      &cfg.sockbuf, sizeof(int)))
			error(1, errno, "SO_RCVBUF %d", cfg.sockbuf);
		/* a blocking recvmmsg() wakes up each tick to look at the clock */
		if (setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
			error(1, errno, "SO_RCVTIMEO");
		if (bind(fds[i], (struct sockaddr *)&ss, alen)) {
			if (errno == EADDRINUSE)
				error(1, 0, "port %u in use on %s (another sink, or another program, listens there); choose another with -p",
				      port, cfg.host ? cfg.host : "any address");
			error(1, errno, "bind to %s port %u",
			      cfg.host ? cfg.host : "any", port);
		}
		if (!port) {
			socklen_t len = sizeof(ss);

			if (getsockname(fds[i], (struct sockaddr *)&ss, &len))
				error(1, errno, "getsockname");
			cfg.port = gen_sockaddr_port((struct sockaddr *)&ss);
		}
		if (!i)
			cfg.family = ss.ss_family;
	}
}

static int rcvbuf_size(void)
{
	socklen_t len = sizeof(int);
	int v = 0;

	getsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &v, &len);
	return v;
}

static void setup_buffers(void)
{
	bufs = malloc((size_t)cfg.batch * BUF_SIZE);
	msgs = calloc(cfg.batch, sizeof(*msgs));
	iov = calloc(cfg.batch, sizeof(*iov));
	from = calloc(cfg.batch, sizeof(*from));
	if (!bufs || !msgs || !iov || !from)
		error(1, errno, "alloc");
	for (unsigned int i = 0; i < cfg.batch; i++) {
		iov[i].iov_base = bufs + (size_t)i * BUF_SIZE;
		iov[i].iov_len = BUF_SIZE;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = &from[i];
	}
}

static struct gen_flow *flow_get(uint16_t id)
{
	struct gen_flow *f = st.flow[id];

	if (f)
		return f;
	f = malloc(sizeof(*f));
	if (!f)
		error(1, errno, "malloc");
	gen_flow_init(f);
	st.flow[id] = f;
	st.nseen++;
	return f;
}

static uint64_t t_end = UINT64_MAX;	/* ns: -l runs out; UINT64_MAX: none */

/* past_end - SIGINT/SIGTERM came, or -l ran out */
static bool past_end(void)
{
	return gen_stop || (t_end != UINT64_MAX && gen_now_ns() >= t_end);
}

/*
 * busy_work - what the monitor process does with each packet: burn CPU,
 * up to SIGINT/SIGTERM or the end of -l (looked at every 4096 rounds).
 */
static void busy_work(uint64_t cycles)
{
	uint64_t c0 = gen_cycles();

	for (unsigned int i = 1; gen_cycles() - c0 < cycles; i++) {
		gen_cpu_relax();
		if (!(i & 4095) && past_end())
			return;
	}
}

/* handle - account one datagram received on socket @sock. */
static void handle(unsigned int sock, const uint8_t *buf, size_t len,
		   const struct sockaddr_storage *src, socklen_t srclen)
{
	struct gen_flow *f;
	struct gen_hdr h;
	struct gen_fin fin;

	if (!gen_hdr_decode(buf, len, &h)) {
		st.foreign++;
		return;
	}
	switch (h.type) {
	case GEN_DATA:
		f = flow_get(h.flow);
		gen_flow_data(f, gen_seq_unwrap(f->next, h.seq, h.seq_bits), len);
		st.messages++;
		st.bytes += len;
		if (st.work_cycles && !past_end())
			busy_work(st.work_cycles);
		break;
	case GEN_FIN:
		if (!gen_fin_decode(buf, len, &fin)) {
			st.foreign++;
			return;
		}
		f = flow_get(h.flow);
		if (!f->fin) {
			st.fins++;
			st.src[h.flow] = malloc(sizeof(struct fin_src));
			if (!st.src[h.flow])
				error(1, errno, "malloc");
		}
		gen_flow_fin(f, fin.flow_sent, fin.flow_errors);
		st.src[h.flow]->sock = sock;
		st.src[h.flow]->len = srclen;
		memcpy(&st.src[h.flow]->addr, src, srclen);
		st.fin = fin;
		if (fin.elapsed_ns > st.fin_elapsed_ns)
			st.fin_elapsed_ns = fin.elapsed_ns;
		st.fin_flows = cfg.expect_flows ? cfg.expect_flows :
			       fin.nflows ? fin.nflows : GEN_MAX_FLOWS;
		break;
	case GEN_REPORT:
		break;
	}
}

/* receive - one recvmmsg() on socket @i; returns datagrams or 0. */
static int receive(unsigned int i, int flags)
{
	int n;

	for (unsigned int m = 0; m < cfg.batch; m++)
		msgs[m].msg_hdr.msg_namelen = sizeof(from[m]);
	n = recvmmsg(fds[i], msgs, cfg.batch, flags, NULL);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
		    errno == ECONNREFUSED)
			return 0;
		error(1, errno, "recvmmsg");
	}
	if (n > 0) {
		uint64_t now = gen_now_ns(), before = st.messages;

		for (int m = 0; m < n; m++)
			handle(i, iov[m].iov_base, msgs[m].msg_len, &from[m],
			       msgs[m].msg_hdr.msg_namelen);
		if (st.messages != before) {	/* FINs are not traffic */
			if (!st.t_first)
				st.t_first = now;
			st.t_last = now;
		}
	}
	return n;
}

static bool all_fins(void)
{
	return st.fin_flows && st.fins >= st.fin_flows;
}

static uint64_t total_loss(uint64_t *reorder, uint64_t *dup)
{
	uint64_t loss = 0;

	*reorder = *dup = 0;
	for (unsigned int i = 0; i < GEN_MAX_FLOWS && st.nseen; i++) {
		const struct gen_flow *f = st.flow[i];

		if (!f)
			continue;
		loss += gen_flow_loss(f);
		*reorder += f->reorder;
		*dup += f->dup;
	}
	return loss;
}

static void progress(FILE *out, uint64_t t0, uint64_t now, uint64_t dt_ns,
		     uint64_t dmsgs, uint64_t dbytes, uint64_t dcpu)
{
	uint64_t reorder, dup, loss = total_loss(&reorder, &dup);
	double dt = dt_ns / 1e9;

	fprintf(out, "%8.2f s %12.0f pps %10.2f Mbit/s  loss %llu  reorder %llu  cpu %5.1f%%",
		(now - t0) / 1e9, dmsgs / dt, dbytes * 8 / dt / 1e6,
		(unsigned long long)loss, (unsigned long long)reorder,
		100.0 * dcpu / dt_ns);
	if (dmsgs)
		fprintf(out, "  %.0f ns/pkt", (double)dcpu / dmsgs);
	fputc('\n', out);
	fflush(out);
}

/* The totals both outputs print. */
struct result {
	const char *stop;	/* why the sink stopped */
	double elapsed;		/* s, first to last DATA batch */
	double pps, mbit;
	uint64_t loss, reorder, dup;
	uint64_t cpu_user, cpu_sys;	/* ns */
	uint64_t khz;
	const char *khz_src;
	int sockbuf;
	size_t msg_size;	/* from the FIN, else bytes / messages */
	long long socket_drops;	/* UDP receive buffer drops; -1: unknown */
};

/* sender_totals - what all senders say they sent, from the FINs */
static void sender_totals(void)
{
	st.fin_messages = st.fin_errors = 0;
	for (unsigned int i = 0; i < GEN_MAX_FLOWS && st.nseen; i++) {
		const struct gen_flow *f = st.flow[i];

		if (f && f->fin) {
			st.fin_messages += f->fin_sent;
			st.fin_errors += f->fin_errors;
		}
	}
}

static void print_text(FILE *o, const struct result *r)
{
	double cpu = (r->cpu_user + r->cpu_sys) / 1e9;
	unsigned int shown = 0;

	fprintf(o, "\nSocket  Message  Elapsed      Messages                   Throughput\n"
		   "Size    Size     Time         Okay        Errors   Rate         10^6bits/sec\n"
		   "bytes   bytes    secs         #           #        pps\n\n");
	if (st.fin_flows) {
		double sel = st.fin_elapsed_ns / 1e9;
		double spps = sel > 0 ? st.fin_messages / sel : 0;

		fprintf(o, "%-7u %-8u %-12.2f %-11llu %-8llu %-12.1f %.2f  (sent)\n",
			st.fin.sockbuf, st.fin.msg_size, sel,
			(unsigned long long)st.fin_messages,
			(unsigned long long)st.fin_errors, spps,
			spps * st.fin.msg_size * 8 / 1e6);
	}
	fprintf(o, "%-7d %-8zu %-12.2f %-11llu %-8llu %-12.1f %.2f  (received)\n",
		r->sockbuf, r->msg_size, r->elapsed,
		(unsigned long long)st.messages, (unsigned long long)st.foreign,
		r->pps, r->mbit);
	fprintf(o, "\nloss %llu (%.3f%%), reorder %llu, duplicates %llu, foreign %llu; stopped: %s\n",
		(unsigned long long)r->loss,
		st.messages + r->loss ? 100.0 * r->loss / (st.messages + r->loss) : 0,
		(unsigned long long)r->reorder, (unsigned long long)r->dup,
		(unsigned long long)st.foreign, r->stop);
	if (r->socket_drops >= 0)
		fprintf(o, "UDP receive buffer drops in this network namespace: %lld\n",
			r->socket_drops);
	fprintf(o, "CPU: receiver %.3f s (user %.3f, sys %.3f)", cpu,
		r->cpu_user / 1e9, r->cpu_sys / 1e9);
	if (st.messages)
		fprintf(o, " = %.0f ns/pkt, %.0f cycles/pkt at %llu kHz (%s)",
			cpu * 1e9 / st.messages, cpu * r->khz * 1e3 / st.messages,
			(unsigned long long)r->khz, r->khz_src);
	fputc('\n', o);
	if (st.nseen <= 1)
		return;
	fprintf(o, "\n%6s %12s %12s %10s %10s %8s\n", "flow", "messages",
		"expected", "loss", "reorder", "dup");
	for (unsigned int i = 0; i < GEN_MAX_FLOWS && shown < 64; i++) {
		const struct gen_flow *f = st.flow[i];

		if (!f)
			continue;
		fprintf(o, "%6u %12llu %12llu %10llu %10llu %8llu%s\n", i,
			(unsigned long long)f->received,
			(unsigned long long)gen_flow_expected(f),
			(unsigned long long)gen_flow_loss(f),
			(unsigned long long)f->reorder,
			(unsigned long long)f->dup, f->fin ? "" : "  (no FIN)");
		shown++;
	}
	if (st.nseen > shown)
		fprintf(o, "... %u more flows in -j output\n", st.nseen - shown);
}

static void print_json(const struct result *r)
{
	double cpu = (r->cpu_user + r->cpu_sys) / 1e9;
	FILE *o = stdout;
	bool first = true;

	fprintf(o, "{\"mode\":\"sink\",\"port\":%u,\"family\":\"%s\",\"sockets\":%u,"
		"\"batch\":%u,\"socket_size\":%d,\"message_size\":%zu,\"stop\":\"%s\",",
		cfg.port, cfg.family == AF_INET6 ? "inet6" : "inet", nfds,
		cfg.batch, r->sockbuf, r->msg_size, r->stop);
	fprintf(o, "\"messages\":%llu,\"bytes\":%llu,\"errors\":%llu,\"elapsed_s\":",
		(unsigned long long)st.messages, (unsigned long long)st.bytes,
		(unsigned long long)st.foreign);
	gen_json_num(o, r->elapsed, 6);
	fputs(",\"pps\":", o);
	gen_json_num(o, r->elapsed > 0 ? r->pps : NAN, 1);
	fputs(",\"mbit_s\":", o);
	gen_json_num(o, r->elapsed > 0 ? r->mbit : NAN, 3);
	fprintf(o, ",\"loss\":%llu,\"reorder\":%llu,\"dup\":%llu,\"cpu_s\":",
		(unsigned long long)r->loss, (unsigned long long)r->reorder,
		(unsigned long long)r->dup);
	gen_json_num(o, cpu, 6);
	fputs(",\"cpu_user_s\":", o);
	gen_json_num(o, r->cpu_user / 1e9, 6);
	fputs(",\"cpu_sys_s\":", o);
	gen_json_num(o, r->cpu_sys / 1e9, 6);
	fputs(",\"ns_per_packet\":", o);
	gen_json_num(o, st.messages ? cpu * 1e9 / st.messages : NAN, 1);
	fputs(",\"cycles_per_packet\":", o);
	gen_json_num(o, st.messages ? cpu * r->khz * 1e3 / st.messages : NAN, 1);
	fprintf(o, ",\"tsc_khz\":%llu,\"tsc_source\":\"%s\",\"work_cycles\":%llu,",
		(unsigned long long)r->khz, r->khz_src,
		(unsigned long long)st.work_cycles);
	if (r->socket_drops >= 0)
		fprintf(o, "\"socket_drops\":%lld,", r->socket_drops);
	else
		fputs("\"socket_drops\":null,", o);
	if (st.fin_flows) {
		fprintf(o, "\"sender\":{\"flows\":%u,\"messages\":%llu,\"errors\":%llu,"
			"\"message_size\":%u,\"socket_size\":%u,\"elapsed_s\":",
			st.fin_flows, (unsigned long long)st.fin_messages,
			(unsigned long long)st.fin_errors, st.fin.msg_size,
			st.fin.sockbuf);
		gen_json_num(o, st.fin_elapsed_ns / 1e9, 6);
		fputs(",\"pps\":", o);
		gen_json_num(o, st.fin_elapsed_ns ?
			     st.fin_messages * 1e9 / st.fin_elapsed_ns : NAN, 1);
		fputs("},", o);
	} else {
		fputs("\"sender\":null,", o);
	}
	fputs("\"per_flow\":[", o);
	for (unsigned int i = 0; i < GEN_MAX_FLOWS && st.nseen; i++) {
		const struct gen_flow *f = st.flow[i];

		if (!f)
			continue;
		fprintf(o, "%s{\"flow\":%u,\"messages\":%llu,\"bytes\":%llu,"
			"\"expected\":%llu,\"loss\":%llu,\"reorder\":%llu,"
			"\"dup\":%llu,\"fin\":%s}",
			first ? "" : ",", i, (unsigned long long)f->received,
			(unsigned long long)f->bytes,
			(unsigned long long)gen_flow_expected(f),
			(unsigned long long)gen_flow_loss(f),
			(unsigned long long)f->reorder,
			(unsigned long long)f->dup, f->fin ? "true" : "false");
		first = false;
	}
	fputs("]}\n", o);
}

/*
 * answer - tell the sender(s) what arrived, totals over all flows: one
 * REPORT to where each flow's FIN came from (a sender resends its FINs
 * until the first REPORT reaches it).
 */
static void answer(const struct result *r)
{
	struct gen_report rep = {
		.messages = st.messages,
		.bytes = st.bytes,
		.loss = r->loss,
		.reorder = r->reorder,
		.dup = r->dup,
		.elapsed_ns = st.t_last - st.t_first,
		.cpu_ns = r->cpu_user + r->cpu_sys,
		.sockbuf = r->sockbuf,
	};
	uint8_t buf[GEN_REPORT_LEN];

	gen_report_encode(buf, &rep);
	for (unsigned int i = 0; i < GEN_MAX_FLOWS; i++) {
		const struct fin_src *s = st.src[i];

		if (s && sendto(fds[s->sock], buf, sizeof(buf), 0,
				(const struct sockaddr *)&s->addr, s->len) < 0)
			error(0, errno, "sending the report to flow %u's sender", i);
	}
}

int gen_sink(int argc, char **argv)
{
	uint64_t t0, now, next_tick, last_tick, last_msgs = 0, last_bytes = 0;
	uint64_t cu0, cs0, cu1, cs1, last_cpu;
	struct pollfd *pfd;
	struct result r = { .stop = "signal" };
	long long drops0;
	FILE *out;

	program_invocation_name = "netcost-gen sink";	/* error()'s prefix */
	parse_opts(argc, argv);
	if (cfg.check) {
		struct sockaddr_storage ss;

		gen_resolve(cfg.host, cfg.port, cfg.family, &ss);	/* exits 1 on failure */
		return 0;
	}
	out = cfg.json ? stderr : stdout;
	gen_install_signals();

	open_sockets();
	drops0 = gen_udp_rcvbuf_errors();
	setup_buffers();
	pfd = calloc(nfds, sizeof(*pfd));
	if (!pfd)
		error(1, errno, "calloc");
	for (unsigned int i = 0; i < nfds; i++) {
		pfd[i].fd = fds[i];
		pfd[i].events = POLLIN;
	}
	if (cfg.cpu >= 0)
		gen_pin_cpu(cfg.cpu);
	gen_apply_sched(&cfg.sched, cfg.sched_arg);
	r.khz = gen_tsc_khz(&r.khz_src);
	st.work_cycles = cfg.work_cycles ? cfg.work_cycles :
			 cfg.work_ns * r.khz / 1000000;
	r.sockbuf = rcvbuf_size();

	if (cfg.ready_file) {
		char text[16];

		snprintf(text, sizeof(text), "%u\n", cfg.port);
		gen_write_file(cfg.ready_file, text);
	}
	if (!cfg.quiet)
		fprintf(out, "netcost-gen sink: port %u%s (%s, %u socket%s), batch %u, work %llu cycles\n",
			cfg.port, nfds > 1 ? "+" : "",
			cfg.family == AF_INET6 ? "IPv6" : "IPv4", nfds,
			nfds > 1 ? "s" : "", cfg.batch,
			(unsigned long long)st.work_cycles);

	t0 = last_tick = gen_now_ns();
	if (cfg.seconds)
		t_end = t0 + (uint64_t)(cfg.seconds * 1e9);
	next_tick = t0 + NSEC_PER_SEC;
	gen_cpu_ns(&cu0, &cs0);
	last_cpu = cu0 + cs0;

	while (!gen_stop) {
		now = gen_now_ns();
		if (now >= t_end) {
			r.stop = "duration";
			break;
		}
		if (cfg.idle_timeout && st.t_last &&
		    now - st.t_last >= cfg.idle_timeout * 1e9) {
			r.stop = "idle";
			break;
		}
		if (now >= next_tick) {
			gen_cpu_ns(&cu1, &cs1);
			if (!cfg.quiet)
				progress(out, t0, now, now - last_tick,
					 st.messages - last_msgs,
					 st.bytes - last_bytes,
					 cu1 + cs1 - last_cpu);
			last_tick = now;
			last_msgs = st.messages;
			last_bytes = st.bytes;
			last_cpu = cu1 + cs1;
			next_tick += NSEC_PER_SEC;
			if (next_tick <= now)
				next_tick = now + NSEC_PER_SEC;
		}

		if (nfds == 1) {
			/* block up to a tick for the first, take what is queued */
			receive(0, MSG_WAITFORONE);
		} else if (poll(pfd, nfds, TICK_MS) > 0) {
			for (unsigned int i = 0; i < nfds; i++)
				if (pfd[i].revents)
					receive(i, MSG_DONTWAIT);
		}

		if (all_fins()) {
			/* what other sockets still hold was sent before the FIN */
			for (unsigned int i = 0; i < nfds; i++)
				while (receive(i, MSG_DONTWAIT) > 0)
					;
			r.stop = "fin";
			break;
		}
	}

	gen_cpu_ns(&cu1, &cs1);
	r.cpu_user = cu1 - cu0;
	r.cpu_sys = cs1 - cs0;
	r.elapsed = st.t_last > st.t_first ? (st.t_last - st.t_first) / 1e9 : 0;
	r.pps = r.elapsed > 0 ? st.messages / r.elapsed : 0;
	r.mbit = r.elapsed > 0 ? st.bytes * 8 / r.elapsed / 1e6 : 0;
	r.loss = total_loss(&r.reorder, &r.dup);
	r.socket_drops = drops0 >= 0 ? gen_udp_rcvbuf_errors() - drops0 : -1;
	sender_totals();
	if (st.fin_flows)
		r.msg_size = st.fin.msg_size;
	else if (st.messages)
		r.msg_size = st.bytes / st.messages;
	if (all_fins())
		answer(&r);

	free(pfd);
	if (cfg.json)
		print_json(&r);
	else
		print_text(out, &r);
	/* netcost-gen(1): a sink that received no message measured nothing */
	if (!st.messages) {
		fprintf(stderr, "netcost-gen sink: received no message on port %u (stopped: %s)\n",
			cfg.port, r.stop);
		return 1;
	}
	return 0;
}
