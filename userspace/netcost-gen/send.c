// SPDX-License-Identifier: GPL-2.0
/*
 * send.c - "netcost-gen send": UDP datagrams to HOST, paced or flat out.
 *
 * Each flow is its own connected socket, so its own source port: with
 * --flows 19 -r 38000 one box stands in for the 19 senders x 2000 pps of
 * the original report.  Flows are spread over -T threads; each thread
 * follows an absolute-deadline schedule (pace.h) and sends whatever is
 * due with one sendmmsg() per flow.  At the end the sender sends a FIN on
 * every flow, carrying its counts, until the sink answers with a REPORT,
 * so that both the sender and the receiver line can be printed.
 *
 * With --gso each message of a sendmmsg() is a UDP GSO super-packet
 * (UDP_SEGMENT, as in udpgso_bench_tx) of up to GEN_GSO_MAX_SEGS datagrams,
 * each with its own header: the wire carries the same datagrams, but
 * the sending stack is walked once per super-packet instead of once per
 * datagram.  The datagrams are cut apart by the NIC, by the software GSO
 * fallback, or, over loopback, at the receiving socket.
 */
#include <netinet/udp.h>
#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gen.h"
#include "pace.h"
#include "proto.h"
#include "opts.h"
#include "util.h"

static struct gen_cfg cfg;

#define MODE		"send"
#define FIN_EVERY_NS	(100 * 1000 * 1000ull)
#define END_GRACE_NS	(10 * 1000 * 1000ull)	/* late packets still sent */

/* One flow: a connected socket with its own source port. */
struct flow_tx {
	int fd;
	uint16_t id;
	uint16_t sport;
	uint16_t dport;
	uint64_t seq;		/* next sequence number = messages sent */
	uint64_t slots;		/* send attempts: seq + errors */
	uint64_t errors;
	uint64_t limit;		/* slots this flow may use (-n) */
};

/* One sending thread and the flows it owns. */
struct worker {
	pthread_t tid;
	unsigned int idx;
	struct flow_tx **flows;
	unsigned int nflows;
	uint64_t limit;		/* slots over its flows; UINT64_MAX: none */
	uint64_t end_ns;	/* when it sent its last packet */
	int first_errno;
	uint8_t *bufs;		/* cfg.batch payloads of cfg.size bytes */
	struct mmsghdr *msgs;
	struct iovec *iov;
	/* read by the progress loop while the thread runs */
	uint64_t sent __attribute__((aligned(64)));
	uint64_t errors;
	int done;
};

static struct flow_tx *flows;
static struct worker *workers;
static pthread_barrier_t start_barrier;
static uint64_t t_start, t_end;		/* ns; t_end UINT64_MAX: no limit */

static void parse_opts(int argc, char **argv)
{
	size_t max_size;

	gen_cfg_parse(&cfg, GEN_SEND, argc, argv);
	if (!cfg.host)
		gen_usage_error(MODE, "-H HOST is required");
	if (cfg.family == AF_UNSPEC)
		cfg.family = strchr(cfg.host, ':') ? AF_INET6 : AF_INET;
	max_size = cfg.family == AF_INET6 ? 65527 : 65507;
	if (cfg.size > max_size)
		gen_usage_error(MODE, "-m %zu: an IPv%c UDP payload is at most %zu bytes",
				cfg.size, cfg.family == AF_INET6 ? '6' : '4', max_size);
	if (cfg.threads > cfg.flows)
		gen_usage_error(MODE, "-T %u: more threads than flows (--flows %u); each thread needs a flow",
				cfg.threads, cfg.flows);
	if (cfg.flow_base + cfg.flows > GEN_MAX_FLOWS)
		gen_usage_error(MODE, "--flow-base %u + --flows %u: flow ids end at %d",
				cfg.flow_base, cfg.flows, GEN_MAX_FLOWS - 1);
	if (cfg.dport_per_flow && cfg.port + cfg.flows - 1 > 65535)
		gen_usage_error(MODE, "--dport-per-flow: ports %u..%u do not fit",
				cfg.port, cfg.port + cfg.flows - 1);
	if (cfg.spin_ns && !cfg.rate)
		gen_usage_error(MODE, "--spin paces packets: it needs -r PPS");
	if (cfg.gso) {
		cfg.segs = GEN_GSO_MAX_BYTES / cfg.size;
		if (cfg.segs > GEN_GSO_MAX_SEGS)
			cfg.segs = GEN_GSO_MAX_SEGS;
		if (cfg.segs < 2)
			gen_usage_error(MODE, "--gso: -m %zu leaves no room for two datagrams in %d bytes",
					cfg.size, GEN_GSO_MAX_BYTES);
	}
	if (cfg.count && !cfg.seconds_set)
		cfg.seconds = 0;	/* -n alone: no time limit */
}

/* open_flow - a socket connected to the destination, its own source port. */
static void open_flow(struct flow_tx *f, unsigned int id)
{
	struct sockaddr_storage dst, src;
	socklen_t alen, slen = sizeof(src);

	f->id = cfg.flow_base + id;
	f->dport = cfg.port + (cfg.dport_per_flow ? id : 0);
	f->limit = cfg.count ? gen_split(cfg.count, cfg.flows, id) : UINT64_MAX;
	alen = gen_resolve(cfg.host, f->dport, cfg.family, &dst);
	f->fd = socket(dst.ss_family, SOCK_DGRAM, 0);
	if (f->fd < 0)
		error(1, errno, "socket");
	if (cfg.sockbuf &&
	    setsockopt(f->fd, SOL_SOCKET, SO_SNDBUF, &cfg.sockbuf, sizeof(int)))
		error(1, errno, "SO_SNDBUF %d", cfg.sockbuf);
	if (cfg.gso) {
		int gso_size = cfg.size;

		if (setsockopt(f->fd, SOL_UDP, UDP_SEGMENT, &gso_size, sizeof(gso_size)))
			error(1, errno, "--gso: UDP_SEGMENT (needs Linux 4.18)");
	}
	if (connect(f->fd, (struct sockaddr *)&dst, alen))
		error(1, errno, "connect to %s port %u", cfg.host, f->dport);
	if (getsockname(f->fd, (struct sockaddr *)&src, &slen))
		error(1, errno, "getsockname");
	f->sport = gen_sockaddr_port((struct sockaddr *)&src);
}

static int sndbuf_size(void)
{
	socklen_t len = sizeof(int);
	int v = 0;

	getsockopt(flows[0].fd, SOL_SOCKET, SO_SNDBUF, &v, &len);
	return v;
}

/*
 * send_flow - send @n datagrams (at most cfg.batch * cfg.segs) on flow @f
 * with one sendmmsg() each round.  Datagram j sits at bufs + j * size, so
 * message i (cfg.segs datagrams with --gso, else one) is one contiguous
 * run.  A failed message costs its slots but not its sequence numbers,
 * so that the sink sees loss in the network only.
 */
static void send_flow(struct worker *w, struct flow_tx *f, unsigned int n)
{
	while (n && !gen_stop) {
		unsigned int i, nmsg = (n + cfg.segs - 1) / cfg.segs, done;
		int ret;

		for (i = 0; i < n; i++)
			gen_data_encode(w->bufs + (size_t)i * cfg.size, cfg.size,
					f->id, f->seq + i);
		for (i = 0; i < nmsg; i++)
			w->iov[i].iov_len = (i + 1 < nmsg ? cfg.segs : n - i * cfg.segs) *
					    cfg.size;
		ret = sendmmsg(f->fd, w->msgs, nmsg, 0);
		if (ret > 0) {
			done = ret == (int)nmsg ? n : (unsigned int)ret * cfg.segs;
			f->seq += done;
			f->slots += done;
			n -= done;
			__atomic_store_n(&w->sent, w->sent + done, __ATOMIC_RELAXED);
			continue;
		}
		if (errno == EINTR)
			continue;
		/* ECONNREFUSED (ICMP from an earlier one), ENOBUFS, ... */
		if (!w->first_errno)
			w->first_errno = errno;
		done = n < cfg.segs ? n : cfg.segs;
		f->errors += done;
		f->slots += done;
		n -= done;
		__atomic_store_n(&w->errors, w->errors + done, __ATOMIC_RELAXED);
	}
}

/*
 * run_paced - send what the schedule says is due, sleep to the next one.
 * A sender that falls behind catches up in full batches; one that cannot
 * carry the rate stops END_GRACE_NS after the end all the same, short of
 * packets rather than late.
 */
static void run_paced(struct worker *w, const struct gen_pace *pace)
{
	uint64_t limit = w->limit;
	uint64_t k = 0;		/* slots used so far */
	unsigned int cnt[w->nflows];

	if (t_end != UINT64_MAX && gen_pace_limit(pace, t_end) < limit)
		limit = gen_pace_limit(pace, t_end);

	while (!gen_stop && k < limit) {
		uint64_t now = gen_now_ns();
		uint64_t due = gen_pace_count(pace, now);
		uint64_t n;

		if (t_end != UINT64_MAX && now >= t_end + END_GRACE_NS)
			break;

		if (due > limit)
			due = limit;
		if (due <= k) {
			uint64_t t = gen_pace_due(pace, k);

			if (!cfg.spin_ns) {
				gen_sleep_until(t);
				continue;
			}
			/* wake up early, then spin onto the deadline itself */
			if (t - now > cfg.spin_ns)
				gen_sleep_until(t - cfg.spin_ns);
			while (gen_now_ns() < t && !gen_stop)
				gen_cpu_relax();
			continue;
		}
		n = due - k;
		if (n > (uint64_t)cfg.batch * cfg.segs * w->nflows)
			n = (uint64_t)cfg.batch * cfg.segs * w->nflows;
		/* slot k goes to flow k % nflows: count each flow's share */
		for (unsigned int j = 0; j < w->nflows; j++)
			cnt[j] = gen_split(n, w->nflows,
					   (j + w->nflows - k % w->nflows) % w->nflows);
		for (unsigned int j = 0; j < w->nflows; j++)
			send_flow(w, w->flows[j], cnt[j]);
		k += n;
	}
}

/* run_flat - as fast as possible: a batch per flow, round robin. */
static void run_flat(struct worker *w)
{
	unsigned int j = 0, active = 0;

	/* a flow with nothing to send (-n below --flows) is never active */
	for (unsigned int i = 0; i < w->nflows; i++)
		active += w->flows[i]->slots < w->flows[i]->limit;
	while (!gen_stop && active) {
		struct flow_tx *f = w->flows[j];
		uint64_t left = f->limit - f->slots;

		j = (j + 1) % w->nflows;
		if (!left)
			continue;
		if (t_end != UINT64_MAX && gen_now_ns() >= t_end)
			break;
		send_flow(w, f, left < cfg.batch * cfg.segs ? left : cfg.batch * cfg.segs);
		if (f->slots == f->limit)
			active--;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct gen_pace pace;

	prctl(PR_SET_TIMERSLACK, 1UL);	/* ns: wake on the deadline */
	if (cfg.cpu >= 0)
		gen_pin_cpu(cfg.cpu + w->idx);
	gen_apply_sched(&cfg.sched, cfg.sched_arg);

	pthread_barrier_wait(&start_barrier);	/* all set up */
	pthread_barrier_wait(&start_barrier);	/* t_start is set */

	if (cfg.rate) {
		/* this thread's share of the rate: num/den exactly */
		gen_pace_init(&pace, t_start, cfg.rate * w->nflows, cfg.flows);
		run_paced(w, &pace);
	} else {
		run_flat(w);
	}
	w->end_ns = gen_now_ns();
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void setup_worker(struct worker *w, unsigned int idx)
{
	w->idx = idx;
	w->nflows = 0;
	w->flows = calloc(cfg.flows / cfg.threads + 1, sizeof(*w->flows));
	w->bufs = calloc((size_t)cfg.batch * cfg.segs, cfg.size);
	w->msgs = calloc(cfg.batch, sizeof(*w->msgs));
	w->iov = calloc(cfg.batch, sizeof(*w->iov));
	if (!w->flows || !w->bufs || !w->msgs || !w->iov)
		error(1, errno, "calloc");
	w->limit = 0;
	for (unsigned int f = idx; f < cfg.flows; f += cfg.threads) {
		w->flows[w->nflows++] = &flows[f];
		w->limit += flows[f].limit == UINT64_MAX ? 0 : flows[f].limit;
	}
	if (!cfg.count)
		w->limit = UINT64_MAX;
	for (unsigned int i = 0; i < cfg.batch; i++) {
		w->iov[i].iov_base = w->bufs + (size_t)i * cfg.segs * cfg.size;
		w->iov[i].iov_len = cfg.size;
		w->msgs[i].msg_hdr.msg_iov = &w->iov[i];
		w->msgs[i].msg_hdr.msg_iovlen = 1;
	}
}

static void totals(uint64_t *sent, uint64_t *errors)
{
	*sent = *errors = 0;
	for (unsigned int t = 0; t < cfg.threads; t++) {
		*sent += __atomic_load_n(&workers[t].sent, __ATOMIC_RELAXED);
		*errors += __atomic_load_n(&workers[t].errors, __ATOMIC_RELAXED);
	}
}

static bool all_done(void)
{
	for (unsigned int t = 0; t < cfg.threads; t++)
		if (!__atomic_load_n(&workers[t].done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* progress_loop - one line a second until the workers are done. */
static void progress_loop(FILE *out)
{
	uint64_t next = t_start + NSEC_PER_SEC, last_t = t_start;
	uint64_t last_sent = 0, sent, errors;

	while (!all_done()) {
		uint64_t now = gen_now_ns();

		if (now < next) {
			gen_sleep_until(next < now + 50000000 ? next : now + 50000000);
			continue;
		}
		totals(&sent, &errors);
		if (!cfg.quiet) {
			double dt = (now - last_t) / 1e9;
			double pps = (sent - last_sent) / dt;

			fprintf(out, "%8.2f s %12.0f pps %10.2f Mbit/s  errors %llu\n",
				(now - t_start) / 1e9, pps,
				pps * cfg.size * 8 / 1e6, (unsigned long long)errors);
			fflush(out);
		}
		last_t = now;
		last_sent = sent;
		next += NSEC_PER_SEC;
	}
}

/*
 * exchange_fin - send a FIN on every flow every 100 ms until the sink
 * answers with a REPORT on any of them, the port is unreachable, or
 * --report-wait runs out.  After SIGINT only one round of FINs goes out,
 * so that the sink still learns the counts and stops.  Returns true with @rep filled on an answer;
 * *@why says why not otherwise.
 */
static bool exchange_fin(const struct gen_fin *tmpl, struct gen_report *rep,
			 const char **why)
{
	uint64_t deadline = gen_now_ns() + (uint64_t)(cfg.report_wait * 1e9);
	uint64_t next_fin = 0;
	struct pollfd *pfd;
	uint8_t buf[GEN_FIN_LEN > GEN_REPORT_LEN ? GEN_FIN_LEN : GEN_REPORT_LEN];
	bool got = false;

	*why = "no report within --report-wait";
	pfd = calloc(cfg.flows, sizeof(*pfd));
	if (!pfd)
		error(1, errno, "calloc");
	for (unsigned int i = 0; i < cfg.flows; i++) {
		pfd[i].fd = flows[i].fd;
		pfd[i].events = POLLIN;
	}
	while (!got) {
		uint64_t now = gen_now_ns();
		int timeout;

		if (now >= deadline || (gen_stop && next_fin))
			break;	/* interrupted: one round of FINs, no waiting */
		if (now >= next_fin) {
			for (unsigned int i = 0; i < cfg.flows; i++) {
				struct gen_fin f = *tmpl;

				f.flow_sent = flows[i].seq;
				f.flow_errors = flows[i].errors;
				gen_fin_encode(buf, flows[i].id, &f);
				if (send(flows[i].fd, buf, GEN_FIN_LEN, 0) < 0 &&
				    errno == ECONNREFUSED) {
					*why = "port unreachable: no sink";
					goto out;
				}
			}
			next_fin = now + FIN_EVERY_NS;
		}
		timeout = ((next_fin < deadline ? next_fin : deadline) - now) / 1000000 + 1;
		if (poll(pfd, cfg.flows, timeout) <= 0)
			continue;
		for (unsigned int i = 0; i < cfg.flows && !got; i++) {
			ssize_t len;

			if (!pfd[i].revents)
				continue;
			len = recv(pfd[i].fd, buf, sizeof(buf), MSG_DONTWAIT);
			if (len < 0 && errno == ECONNREFUSED) {
				*why = "port unreachable: no sink";
				goto out;
			}
			if (len > 0 && gen_report_decode(buf, len, rep))
				got = true;
		}
	}
out:
	free(pfd);
	return got;
}

static void print_text(FILE *out, uint64_t sent, uint64_t errors, double elapsed,
		       int sockbuf, double cpu_s, uint64_t khz,
		       const struct gen_report *rep, bool got, const char *why,
		       int first_errno)
{
	double pps = elapsed > 0 ? sent / elapsed : 0;

	fprintf(out, "\nSocket  Message  Elapsed      Messages                   Throughput\n"
		     "Size    Size     Time         Okay        Errors   Rate         10^6bits/sec\n"
		     "bytes   bytes    secs         #           #        pps\n\n");
	fprintf(out, "%-7d %-8zu %-12.2f %-11llu %-8llu %-12.1f %.2f  (sent)\n",
		sockbuf, cfg.size, elapsed, (unsigned long long)sent,
		(unsigned long long)errors, pps, pps * cfg.size * 8 / 1e6);
	if (got) {
		double rel = rep->elapsed_ns / 1e9;
		double rpps = rel > 0 ? rep->messages / rel : 0;

		fprintf(out, "%-7u %-8s %-12.2f %-11llu %-8s %-12.1f %.2f  (received: loss %llu, reorder %llu, dup %llu)\n",
			rep->sockbuf, "", rel, (unsigned long long)rep->messages,
			"", rpps, rpps * cfg.size * 8 / 1e6,
			(unsigned long long)rep->loss,
			(unsigned long long)rep->reorder,
			(unsigned long long)rep->dup);
	} else {
		fprintf(out, "receiver: %s\n", why);
	}
	if (errors)
		fprintf(out, "send errors: %llu (first: %s)\n",
			(unsigned long long)errors, strerror(first_errno));
	if (sent)
		fprintf(out, "CPU: sender %.3f s, %.0f ns/msg, %.0f cycles/msg\n",
			cpu_s, cpu_s * 1e9 / sent, cpu_s * khz * 1e3 / sent);
	if (got && rep->messages)
		fprintf(out, "CPU: receiver %.3f s, %.0f ns/msg\n",
			rep->cpu_ns / 1e9, (double)rep->cpu_ns / rep->messages);
}

static void print_json(uint64_t sent, uint64_t errors, double elapsed,
		       int sockbuf, double cpu_s, uint64_t khz,
		       const char *khz_src, const struct gen_report *rep,
		       bool got, const char *why)
{
	double pps = elapsed > 0 ? sent / elapsed : NAN;	/* null over no time */
	FILE *o = stdout;

	fprintf(o, "{\"mode\":\"send\",\"dest\":\"%s\",\"port\":%u,\"family\":\"%s\",",
		cfg.host, cfg.port, cfg.family == AF_INET6 ? "inet6" : "inet");
	fprintf(o, "\"message_size\":%zu,\"flows\":%u,\"threads\":%u,\"batch\":%u,"
		"\"gso_segments\":%u,\"rate_target\":%llu,\"socket_size\":%d,",
		cfg.size, cfg.flows, cfg.threads, cfg.batch, cfg.gso ? cfg.segs : 0,
		(unsigned long long)cfg.rate, sockbuf);
	fprintf(o, "\"messages\":%llu,\"bytes\":%llu,\"errors\":%llu,\"elapsed_s\":",
		(unsigned long long)sent, (unsigned long long)(sent * cfg.size),
		(unsigned long long)errors);
	gen_json_num(o, elapsed, 6);
	fputs(",\"pps\":", o);
	gen_json_num(o, pps, 1);
	fputs(",\"mbit_s\":", o);
	gen_json_num(o, pps * cfg.size * 8 / 1e6, 3);
	fputs(",\"cpu_s\":", o);
	gen_json_num(o, cpu_s, 6);
	fputs(",\"ns_per_packet\":", o);
	gen_json_num(o, sent ? cpu_s * 1e9 / sent : NAN, 1);
	fputs(",\"cycles_per_packet\":", o);
	gen_json_num(o, sent ? cpu_s * khz * 1e3 / sent : NAN, 1);
	fprintf(o, ",\"tsc_khz\":%llu,\"tsc_source\":\"%s\",",
		(unsigned long long)khz, khz_src);
	if (got) {
		fprintf(o, "\"loss\":%llu,\"reorder\":%llu,\"receiver\":{\"messages\":%llu,"
			"\"bytes\":%llu,\"loss\":%llu,\"reorder\":%llu,\"dup\":%llu,"
			"\"socket_size\":%u,\"elapsed_s\":",
			(unsigned long long)rep->loss, (unsigned long long)rep->reorder,
			(unsigned long long)rep->messages, (unsigned long long)rep->bytes,
			(unsigned long long)rep->loss, (unsigned long long)rep->reorder,
			(unsigned long long)rep->dup, rep->sockbuf);
		gen_json_num(o, rep->elapsed_ns / 1e9, 6);
		fputs(",\"pps\":", o);
		gen_json_num(o, rep->elapsed_ns ? rep->messages * 1e9 / rep->elapsed_ns : NAN, 1);
		fputs(",\"cpu_s\":", o);
		gen_json_num(o, rep->cpu_ns / 1e9, 6);
		fputs(",\"ns_per_packet\":", o);
		gen_json_num(o, rep->messages ? (double)rep->cpu_ns / rep->messages : NAN, 1);
		fputs("},", o);
	} else {
		fprintf(o, "\"loss\":null,\"reorder\":null,\"receiver\":null,"
			"\"receiver_missing\":\"%s\",", why);
	}
	fputs("\"per_flow\":[", o);
	for (unsigned int i = 0; i < cfg.flows; i++)
		fprintf(o, "%s{\"flow\":%u,\"sport\":%u,\"dport\":%u,\"messages\":%llu,\"errors\":%llu}",
			i ? "," : "", flows[i].id, flows[i].sport, flows[i].dport,
			(unsigned long long)flows[i].seq,
			(unsigned long long)flows[i].errors);
	fputs("]}\n", o);
}

int gen_send(int argc, char **argv)
{
	FILE *out;
	uint64_t cpu_u0, cpu_s0, cpu_u1, cpu_s1, sent, errors, t_last = 0;
	struct gen_report rep = { 0 };
	struct gen_fin fin = { 0 };
	const char *khz_src, *why = "--report-wait 0";
	int first_errno = 0, sockbuf;
	uint64_t khz;
	double elapsed, cpu_s;
	bool got = false, refused;

	program_invocation_name = "netcost-gen send";	/* error()'s prefix */
	parse_opts(argc, argv);
	if (cfg.check) {
		struct sockaddr_storage ss;

		gen_resolve(cfg.host, cfg.port, cfg.family, &ss);	/* exits 1 on failure */
		return 0;
	}
	out = cfg.json ? stderr : stdout;
	gen_install_signals();

	flows = calloc(cfg.flows, sizeof(*flows));
	workers = calloc(cfg.threads, sizeof(*workers));
	if (!flows || !workers)
		error(1, errno, "calloc");
	for (unsigned int i = 0; i < cfg.flows; i++)
		open_flow(&flows[i], i);
	sockbuf = sndbuf_size();
	for (unsigned int t = 0; t < cfg.threads; t++)
		setup_worker(&workers[t], t);
	khz = gen_tsc_khz(&khz_src);

	if (!cfg.quiet) {
		char rate[32] = "max rate";

		if (cfg.rate)
			snprintf(rate, sizeof(rate), "%llu pps", (unsigned long long)cfg.rate);
		fprintf(out, "netcost-gen send: %s port %u%s, %zu-byte messages, %u flow%s, %u thread%s, %s, batch %u%s\n",
			cfg.host, cfg.port, cfg.dport_per_flow ? "+flow" : "",
			cfg.size, cfg.flows, cfg.flows > 1 ? "s" : "", cfg.threads,
			cfg.threads > 1 ? "s" : "", rate, cfg.batch,
			cfg.gso ? " x GSO" : "");
	}

	pthread_barrier_init(&start_barrier, NULL, cfg.threads + 1);
	for (unsigned int t = 0; t < cfg.threads; t++) {
		int err = pthread_create(&workers[t].tid, NULL, worker_main, &workers[t]);

		if (err)
			error(1, err, "pthread_create");
	}
	pthread_barrier_wait(&start_barrier);
	gen_cpu_ns(&cpu_u0, &cpu_s0);
	t_start = gen_now_ns() + 1000000;	/* 1 ms to get going */
	t_end = cfg.seconds > 0 ? t_start + (uint64_t)(cfg.seconds * 1e9) : UINT64_MAX;
	pthread_barrier_wait(&start_barrier);

	progress_loop(out);
	for (unsigned int t = 0; t < cfg.threads; t++) {
		pthread_join(workers[t].tid, NULL);
		if (workers[t].end_ns > t_last)
			t_last = workers[t].end_ns;
		if (!first_errno)
			first_errno = workers[t].first_errno;
	}
	gen_cpu_ns(&cpu_u1, &cpu_s1);
	totals(&sent, &errors);
	elapsed = t_last > t_start ? (t_last - t_start) / 1e9 : 0;
	cpu_s = (cpu_u1 - cpu_u0 + cpu_s1 - cpu_s0) / 1e9;

	/* FINs are single datagrams bigger than a GSO segment */
	for (unsigned int i = 0; cfg.gso && i < cfg.flows; i++) {
		int off = 0;

		if (setsockopt(flows[i].fd, SOL_UDP, UDP_SEGMENT, &off, sizeof(off)))
			error(1, errno, "clearing UDP_SEGMENT");
	}
	if (cfg.report_wait > 0) {
		fin.nflows = cfg.flows == GEN_MAX_FLOWS ? 0 : cfg.flows;
		fin.messages = sent;
		fin.errors = errors;
		fin.elapsed_ns = t_last - t_start;
		fin.msg_size = cfg.size;
		fin.sockbuf = sockbuf;
		got = exchange_fin(&fin, &rep, &why);
	}
	if (gen_stop && !got)
		why = "interrupted";

	/* refused: an ICMP port unreachable came back, nobody listens */
	refused = first_errno == ECONNREFUSED ||
		  (!got && !strcmp(why, "port unreachable: no sink"));
	if (refused && !got) {
		why = "no receiver (connection refused: nothing listens on that port)";
		first_errno = ECONNREFUSED;
	}
	if (cfg.rate && !gen_stop && !refused && elapsed > 0 && sent < 0.99 * cfg.rate * elapsed)
		fprintf(stderr, "netcost-gen send: warning: %.0f pps is %.1f%% short of -r %llu: this sender or path cannot carry it%s\n",
			sent / elapsed, 100 - 100 * sent / elapsed / cfg.rate,
			(unsigned long long)cfg.rate,
			cfg.gso || cfg.threads > 1 ? "" : " (try -T, --flows, --gso)");
	if (cfg.json)
		print_json(sent, errors, elapsed, sockbuf, cpu_s, khz, khz_src,
			   &rep, got, why);
	else
		print_text(out, sent, errors, elapsed, sockbuf, cpu_s, khz,
			   &rep, got, why, first_errno);

	for (unsigned int i = 0; i < cfg.flows; i++)
		close(flows[i].fd);
	/* nothing delivered: the run measured nothing, say so in the status */
	if ((refused && !got) || (got && !rep.messages)) {
		fprintf(stderr, "netcost-gen send: no receiver at %s port %u: %s\n", cfg.host,
			cfg.port, got ? "the sink received no message" :
			"connection refused, nothing was delivered");
		return 1;
	}
	return 0;
}
