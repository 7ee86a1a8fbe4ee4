// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - "netcost plot A [B] -o FILE.svg": a self-contained SVG to paste
 * into a mailing-list reply: a stacked bar of the cycles per packet of each
 * top-level stage for each snapshot (colour-blind safe colours, one per
 * stage; every figure also in the legend), and for every stage the
 * histograms of A and B overlaid on a log x axis with at least 3 labelled
 * ticks and a y scale in % of events; with NAPI instances, their napi_poll
 * cycles per poll by device, A's and B's bars side by side.  Hand-written
 * SVG text, no libraries.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "metrics.h"
#include "snapshot.h"
#include "cmds.h"

#define W		1000	/* picture width */
#define BAR_LEFT	170	/* x of the bars' zero */
#define BAR_W		(W - BAR_LEFT - 150)
#define BAR_H		34
#define PANEL_W		300
#define PANEL_H		170
#define PANEL_COLS	3
#define NAPI_BAR_H	14	/* a bar of the NAPI panel */

/*
 * Okabe & Ito's colour-blind safe palette, then Tableau's grey and brown:
 * a colour per top-level stage (there are seven), none alike.  The
 * histograms draw A and B in the palette's blue and vermillion.
 */
static const char *const nc_palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
	"#f0e442", "#000000", "#79706e", "#9c755f",
};
static const char *const nc_side_color[2] = { "#0072b2", "#d55e00" };

/* The top-level stages drawn, in order: each keeps its colour on both bars */
struct nc_tops {
	unsigned int nr;
	const char *name[NC_MAX_STAGES];
};

/* nc_top_colour - the colour of top-level stage @name */
static const char *nc_top_colour(const struct nc_tops *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nr && strcmp(t->name[i], name); i++)
		;
	return nc_palette[i % ARRAY_SIZE(nc_palette)];
}

/* nc_base - the last part of a path, for subtitles */
static const char *nc_base(const char *path)
{
	const char *p = strrchr(path, '/');

	return p && p[1] ? p + 1 : path;
}

/* nc_xml - @s with the XML specials escaped */
static void nc_xml(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* nc_nice_step - a 1/2/5 x 10^k tick step that cuts @max into ~@n parts */
static double nc_nice_step(double max, int n)
{
	double raw = max / n, mag = pow(10, floor(log10(raw))), r = raw / mag;

	if (r <= 1)
		return mag;
	if (r <= 2)
		return 2 * mag;
	if (r <= 5)
		return 5 * mag;
	return 10 * mag;
}

/* nc_bar_scale - the end of a bar axis for values up to @max, ticked every *@step */
static double nc_bar_scale(double max, double *step)
{
	if (max <= 0)
		max = 1;
	*step = nc_nice_step(max, 5);
	return ceil(max / *step) * *step;
}

/* nc_si - 1500 -> "1.5k", for tick labels */
static void nc_si(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

/* nc_side_label - "A: kernel (model), N pkt/s, note" */
static void nc_side_label(FILE *f, const struct nc_model *m, const char *tag,
			  const char *file)
{
	double pps = nc_per_s(m, nc_basis_packets(m));

	fprintf(f, "%s = ", tag);
	nc_xml(f, nc_base(file));
	fputs(": ", f);
	nc_xml(f, m->info.kernel);
	fprintf(f, " (%s), %.0f %s pkt/s", nc_preempt_model(m->info.preempt_rt, m->info.threadirqs),
		pps > 0 ? pps : 0, nc_packet_basis(m) == NC_BASIS_TX ? "tx" : "rx");
	if (m->meta.note) {
		fputs(", ", f);
		nc_xml(f, m->meta.note);
	}
}

/*
 * nc_plot_ab - " A x, B y": stage @name's cycles per packet in each
 * snapshot (its own cycles with @own), "-" where it has none
 */
static void nc_plot_ab(FILE *f, struct nc_model **m, int n, const char *name, bool own)
{
	char buf[32];
	int i;

	for (i = 0; i < n; i++) {
		int k = nc_model_find_stage(m[i], name);
		double v = 0;

		if (k >= 0)
			v = own ? nc_stage_own_per_packet(m[i], &m[i]->total, (unsigned int)k) :
				  nc_stage_per_packet(m[i], &m[i]->total, (unsigned int)k);
		if (v > 0)
			nc_report_value(buf, sizeof(buf), v);
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(f, "%s %s %s", i ? "," : "", i ? "B" : "A", buf);
	}
}

/*
 * nc_plot_xaxis - the linear x axis under bars that start at BAR_LEFT: 0 to
 * @max, a tick every @step, titled @title.  Returns the y below it.
 */
static int nc_plot_xaxis(FILE *f, int y, double max, double step, const char *title)
{
	char buf[32];
	double x;

	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>\n",
		BAR_LEFT, y, BAR_LEFT + BAR_W, y);
	for (x = 0; x <= max + step / 2; x += step) {
		double px = BAR_LEFT + x / max * BAR_W;

		nc_si(buf, sizeof(buf), x);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"ax\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
			px, y, px, y + 5, px, y + 18, buf);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"lab\">%s</text>\n",
		BAR_LEFT + BAR_W / 2, y + 36, title);
	return y + 56;
}

/* nc_plot_side_keys - the key of the sides' colours: A's and B's swatches from @x */
static void nc_plot_side_keys(FILE *f, int n, int x, int y)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\" fill-opacity=\"0.5\" stroke=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"lab\">%s</text>\n", x + i * 60, y - 10,
			nc_side_color[i], nc_side_color[i], x + 18 + i * 60, y, i ? "B" : "A");
}

/*
 * nc_plot_waiting - the waiting stages (time off CPU, not in the bars):
 * each one's cycles per packet on each side, one line each.  Returns the
 * y below what it drew.
 */
static int nc_plot_waiting(FILE *f, struct nc_model **m, int n, int y)
{
	const char *names[NC_MAX_STAGES];
	unsigned int s, t, nr = 0;
	int i;

	for (i = 0; i < n; i++)
		for (s = 0; s < m[i]->nr_stages; s++) {
			if (m[i]->stage[s].role != NC_ROLE_LATENCY ||
			    nc_stage_per_packet(m[i], &m[i]->total, s) <= 0)
				continue;
			for (t = 0; t < nr && strcmp(names[t], m[i]->stage[s].name); t++)
				;
			if (t == nr && nr < NC_MAX_STAGES)
				names[nr++] = m[i]->stage[s].name;
		}
	if (!nr)
		return y;
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h2\">Waiting per packet (time off CPU, not in the bars)</text>\n",
		20, y);
	y += 20;
	for (t = 0; t < nr; t++, y += 18) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lab\">%s:", 20, y, names[t]);
		nc_plot_ab(f, m, n, names[t], false);
		fputs(" cycles/pkt</text>\n", f);
	}
	return y + 12;
}

/*
 * nc_plot_bars - one stacked bar per snapshot: the top-level stages'
 * cycles per packet, with the total at the end; segments too narrow for
 * their number get it in the legend below, which gives every stage's
 * cycles per packet on each side.  Returns the y below what it drew.
 */
static int nc_plot_bars(FILE *f, struct nc_model **m, int n, int y)
{
	struct nc_tops tops = { 0 };
	double max = 0, step, x;
	unsigned int s, t;
	int i, lx, ly;
	char buf[32];

	/* the top-level stages with cycles on either side, in A's order */
	for (i = 0; i < n; i++)
		for (s = 0; s < m[i]->nr_stages; s++) {
			if (!nc_stage_in_total(m[i], s) ||
			    nc_stage_own_per_packet(m[i], &m[i]->total, s) <= 0)
				continue;
			for (t = 0; t < tops.nr && strcmp(tops.name[t], m[i]->stage[s].name); t++)
				;
			if (t == tops.nr)
				tops.name[tops.nr++] = m[i]->stage[s].name;
		}
	for (i = 0; i < n; i++)
		max = fmax(max, nc_top_per_packet(m[i], &m[i]->total));
	max = nc_bar_scale(max, &step);

	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h2\">CPU cycles per packet, top-level stages</text>\n",
		20, y);
	y += 16;
	for (i = 0; i < n; i++) {
		int by = y + i * (BAR_H + 14);

		x = BAR_LEFT;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">%s: ",
			BAR_LEFT - 8, by + BAR_H / 2 + 4, i ? "B" : "A");
		fputs(nc_preempt_model(m[i]->info.preempt_rt, m[i]->info.threadirqs), f);
		fputs("</text>\n", f);
		for (t = 0; t < tops.nr; t++) {
			int k = nc_model_find_stage(m[i], tops.name[t]);
			double v = k < 0 ? 0 : nc_stage_own_per_packet(m[i], &m[i]->total,
									(unsigned int)k), w;

			if (v <= 0)
				continue;
			w = v / max * BAR_W;
			fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.5\">"
				"<title>%s: %.0f cycles/pkt</title></rect>\n", x, by, w, BAR_H,
				nc_top_colour(&tops, tops.name[t]), tops.name[t], v);
			if (w > 44)
				fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"in\">%.0f</text>\n",
					x + w / 2, by + BAR_H / 2 + 4, v);
			x += w;
		}
		nc_report_value(buf, sizeof(buf), nc_top_per_packet(m[i], &m[i]->total));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"lab\">%s", x + 6, by + BAR_H / 2 + 4, buf);
		if (m[i]->info.tsc_khz)
			fprintf(f, " (%.0f ns)", nc_cycles_to_ns(nc_top_per_packet(m[i], &m[i]->total),
								 m[i]->info.tsc_khz));
		fputs("</text>\n", f);
	}
	y = nc_plot_xaxis(f, y + n * (BAR_H + 14), max, step, "cycles per packet");

	/* legend: each stage's colour and its cycles per packet on each side */
	lx = 20;
	ly = y;
	for (t = 0; t < tops.nr; t++) {
		if (t && t % 2 == 0) {
			lx = 20;
			ly += 20;
		}
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"lab\">%s:", lx, ly - 10,
			nc_top_colour(&tops, tops.name[t]), lx + 16, ly, tops.name[t]);
		nc_plot_ab(f, m, n, tops.name[t], true);
		fputs(" cycles/pkt</text>\n", f);
		lx += W / 2 - 10;
	}
	return nc_plot_waiting(f, m, n, ly + 30);
}

/* nc_bucket_x - a value's place on a panel's log2 axis, 0..1 */
static double nc_bucket_x(double v, double lmin, double lmax)
{
	return (log2(fmax(v, 0.5)) - lmin) / (lmax - lmin);
}

/*
 * nc_panel_ticks - tick values on a log2 axis from 2^@lmin to 2^@lmax, at
 * least 3 of them: decades (1, 10, 100, ...) when that gives 3, else
 * 1-2-5 steps, else every power of two.  Returns how many (at most @max).
 */
static int nc_panel_ticks(double lmin, double lmax, double *tick, int max)
{
	static const double steps[2][3] = { { 1, 0, 0 }, { 1, 2, 5 } };
	int pass, n = 0;
	double v;

	for (pass = 0; pass < 2; pass++) {
		n = 0;
		for (v = pow(10, floor(lmin * log10(2))); log2(v) <= lmax && n < max; v *= 10) {
			int k;

			for (k = 0; k < 3 && n < max; k++) {
				double t = v * steps[pass][k];

				if (t > 0 && log2(t) >= lmin - 1e-9 && log2(t) <= lmax + 1e-9)
					tick[n++] = t;
			}
		}
		if (n >= 3)
			return n;
	}
	for (n = 0, v = lmin; v <= lmax + 1e-9 && n < max; v += 1)
		tick[n++] = pow(2, v);
	return n;
}

/*
 * nc_plot_panel - the histograms of one stage in A and B, overlaid: the
 * share of events in each bucket (in %; the buckets are an eighth of an
 * octave wide, so equal widths on the log x axis) as step outlines.
 */
static void nc_plot_panel(FILE *f, struct nc_model **m, int n, const char *stage,
			  int px, int py)
{
	const struct nc_hist *h[2] = { NULL, NULL };
	double lmin = 1e9, lmax = -1e9, ymax = 0, ystep, v, tick[32];
	int i, k, nt, pw = PANEL_W - 56, ph = PANEL_H - 50, x0 = px + 46, y0 = py + 20;
	unsigned int b;
	const char *unit = "cycles";

	for (i = 0; i < n; i++) {
		int s = nc_model_find_stage(m[i], stage);

		if (s < 0 || !m[i]->total.stage[s] || !nc_hist_bucket_total(m[i]->total.stage[s]))
			continue;
		h[i] = m[i]->total.stage[s];
		if (m[i]->stage[s].unit == NETCOST_UNIT_PACKETS)
			unit = "packets";
		for (b = 0; b < NETCOST_HIST_BUCKETS; b++) {
			double lo, hi;

			if (!h[i]->buckets[b])
				continue;
			lo = log2(fmax((double)netcost_hist_lo(b), 0.5));
			hi = log2((double)(b == NETCOST_HIST_OVERFLOW ? netcost_hist_lo(b) * 2 :
					   netcost_hist_hi(b) + 1));
			lmin = fmin(lmin, lo);
			lmax = fmax(lmax, hi);
			v = nc_hist_bucket_pct(h[i], b);
			ymax = fmax(ymax, v);
		}
	}
	lmin = floor(lmin);
	lmax = ceil(lmax);
	if (lmax - lmin < 2)
		lmax = lmin + 2;
	if (ymax <= 0)
		ymax = 1;
	ystep = nc_nice_step(ymax, 4);
	ymax = ceil(ymax / ystep) * ystep;

	fprintf(f, "<g class=\"panel\">\n<text x=\"%d\" y=\"%d\" class=\"h3\">%s</text>\n", x0,
		py + 12, stage);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n",
		x0, y0, pw, ph);
	nt = nc_panel_ticks(lmin, lmax, tick, (int)ARRAY_SIZE(tick));
	for (k = 0; k < nt; k++) {
		double tx = x0 + nc_bucket_x(tick[k], lmin, lmax) * pw;
		char buf[32];

		nc_si(buf, sizeof(buf), tick[k]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick xt\">%s</text>\n",
			tx, y0, tx, y0 + ph, tx, y0 + ph + 13, buf);
	}
	/* the y scale: share of events per bucket */
	for (v = 0; v <= ymax + ystep / 2; v += ystep) {
		double ty = y0 + ph - v / ymax * (ph - 4);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"ax\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"tick yt\">%g%%</text>\n",
			x0 - 3, ty, x0, ty, x0 - 5, ty + 3, v);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s per event (log scale)</text>\n",
		x0 + pw / 2, y0 + ph + 27, unit);
	fprintf(f, "<text transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\" class=\"tick\">share of events, %% per bucket</text>\n",
		x0 - 34, y0 + ph / 2);

	for (i = 0; i < n; i++) {
		if (!h[i])
			continue;
		fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.18\" stroke=\"%s\" stroke-width=\"1.4\" d=\"",
			nc_side_color[i], nc_side_color[i]);
		for (b = 0; b < NETCOST_HIST_BUCKETS; b++) {
			double lo, hi, xa, xb, yy;

			if (!h[i]->buckets[b])
				continue;
			lo = fmax((double)netcost_hist_lo(b), 0.5);
			hi = b == NETCOST_HIST_OVERFLOW ? lo * 2 : (double)netcost_hist_hi(b) + 1;
			xa = x0 + nc_bucket_x(lo, lmin, lmax) * pw;
			xb = x0 + nc_bucket_x(hi, lmin, lmax) * pw;
			v = nc_hist_bucket_pct(h[i], b);
			yy = y0 + ph - v / ymax * (ph - 4);
			fprintf(f, "M%.1f %d V%.1f H%.1f V%d Z ", xa, y0 + ph, yy, xb, y0 + ph);
		}
		fputs("\"/>\n", f);
		/* median marker */
		v = nc_hist_percentile(h[i], 50);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
			x0 + nc_bucket_x(v, lmin, lmax) * pw, y0, x0 + nc_bucket_x(v, lmin, lmax) * pw,
			y0 + ph, nc_side_color[i]);
	}
	fputs("</g>\n", f);
}

/*
 * nc_plot_napi - when either side has NAPI instances that polled, their
 * napi_poll cycles per timed poll by device (every CPU's backlog in one):
 * a bar each for A and B in the sides' colours, the figure at its end
 * ("-": none timed, or none of the device).  Returns the y below what it
 * drew.
 */
static int nc_plot_napi(FILE *f, struct nc_model **m, int n, int y)
{
	struct nc_napi_devs *t = nc_xcalloc(1, sizeof(*t));
	double max = 0, step;
	unsigned int d;
	char buf[32];
	int i;

	nc_napi_by_device(t, m[0], n > 1 ? m[1] : NULL);
	if (!t->nr) {
		free(t);
		return y;
	}
	for (d = 0; d < t->nr; d++)
		for (i = 0; i < n; i++)
			max = fmax(max, t->dev[d].side[i].cycles_per_poll);
	max = nc_bar_scale(max, &step);
	y += 20;
	fprintf(f, "<g class=\"napi\">\n<text x=\"20\" y=\"%d\" class=\"h2\">napi_poll cycles per poll by device</text>\n",
		y);
	nc_plot_side_keys(f, n, 420, y);
	y += 14;
	for (d = 0; d < t->nr; d++, y += 10) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">",
			BAR_LEFT - 8, y + n * (NAPI_BAR_H + 2) / 2 + 3);
		nc_xml(f, t->dev[d].device);
		fputs("</text>\n", f);
		for (i = 0; i < n; i++, y += NAPI_BAR_H + 2) {
			double v = t->dev[d].side[i].cycles_per_poll;
			double w = v > 0 ? v / max * BAR_W : 0;

			snprintf(buf, sizeof(buf), "-");
			if (v >= 0)
				nc_report_value(buf, sizeof(buf), v);
			if (w > 0) {
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
					BAR_LEFT, y, w, NAPI_BAR_H, nc_side_color[i]);
				nc_xml(f, t->dev[d].device);
				fprintf(f, ", %s: %s cycles/poll</title></rect>\n", i ? "B" : "A", buf);
			}
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%s</text>\n",
				BAR_LEFT + w + 4, y + NAPI_BAR_H - 3, buf);
		}
	}
	if (t->left_out) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"sub\">... %llu instance%s of more devices not drawn</text>\n",
			BAR_LEFT, y + 10, (unsigned long long)t->left_out,
			t->left_out == 1 ? "" : "s");
		y += 14;
	}
	y = nc_plot_xaxis(f, y, max, step,
			  "napi_poll cycles per timed poll (busy polls are not timed; backlog: every CPU's)");
	fputs("</g>\n", f);
	free(t);
	return y;
}

/* nc_plot_write - the whole picture */
static int nc_plot_write(FILE *f, struct nc_model **m, const char **names, int n)
{
	const char *stages[2 * NC_MAX_STAGES];
	unsigned int s, nr = 0, k;
	int i, y, h, rows;
	char *buf = NULL;
	size_t len = 0;
	FILE *body;

	/* the stages with events on either side, in A's order */
	for (i = 0; i < n; i++) {
		for (s = 0; s < m[i]->nr_stages; s++) {
			if (!m[i]->total.stage[s] || !m[i]->total.stage[s]->count)
				continue;
			for (k = 0; k < nr && strcmp(stages[k], m[i]->stage[s].name); k++)
				;
			if (k == nr)
				stages[nr++] = m[i]->stage[s].name;
		}
	}
	rows = (int)(nr + PANEL_COLS - 1) / PANEL_COLS;

	/* the body first, into memory, so that the height is known */
	body = open_memstream(&buf, &len);
	if (!body) {
		nc_err("out of memory");
		return NC_EXIT_ERROR;
	}
	fprintf(body, "<text x=\"20\" y=\"30\" class=\"h1\">netcost: where a packet's CPU cycles go%s</text>\n",
		n > 1 ? " (A vs B)" : "");
	for (i = 0; i < n; i++) {
		fprintf(body, "<text x=\"20\" y=\"%d\" class=\"sub\">", 52 + 16 * i);
		nc_side_label(body, m[i], i ? "B" : "A", names[i]);
		fputs("</text>\n", body);
	}
	y = nc_plot_bars(body, m, n, 100 + 16 * n);

	fprintf(body, "<text x=\"20\" y=\"%d\" class=\"h2\">Per-event histograms (dashed: median)</text>\n", y);
	nc_plot_side_keys(body, n, 420, y);
	y += 14;
	for (k = 0; k < nr; k++)
		nc_plot_panel(body, m, n, stages[k], 10 + (int)(k % PANEL_COLS) * (PANEL_W + 22),
			      y + (int)(k / PANEL_COLS) * (PANEL_H + 24));
	h = nc_plot_napi(body, m, n, y + rows * (PANEL_H + 24)) + 24;
	fprintf(body, "<text x=\"20\" y=\"%d\" class=\"sub\">percentiles and bucket edges within %.1f%% (log-linear histograms); "
		"stacked: top-level stages only, nested ones are inside them</text>\n",
		h - 12, 100.0 * NC_HIST_REL_ERROR);
	fclose(body);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n", W, h, W, h);
	fputs("<style>.h1{font-size:20px;font-weight:bold}.h2{font-size:15px;font-weight:bold}"
	      ".h3{font-size:13px;font-weight:bold}.lab{font-size:12px}.tick{font-size:10px;fill:#333}"
	      ".sub{font-size:11px;fill:#444}.in{font-size:10px;fill:#fff}"
	      ".ax{stroke:#333;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}"
	      ".frame{fill:none;stroke:#999}</style>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, h);
	fwrite(buf, 1, len, f);
	free(buf);
	fputs("</svg>\n", f);
	return ferror(f) ? NC_EXIT_ERROR : NC_EXIT_OK;
}

struct nc_plot_args {
	struct nc_model **m;
	const char **names;
	int n;
};

/* nc_plot_cb - the nc_write_fn that draws the picture */
static int nc_plot_cb(FILE *f, void *arg)
{
	struct nc_plot_args *pa = arg;

	return nc_plot_write(f, pa->m, pa->names, pa->n);
}

/* cmd_plot - "netcost plot A [B] -o FILE.svg" */
int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct nc_model *models = NULL, *m[2];
	const char *out = NULL, *names[2];
	struct nc_plot_args pa;
	int c, i, n, ret = NC_EXIT_OK;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (c != 'o')
			return nc_usage_err("plot: unknown option or missing argument '%s'",
					    argv[optind - 1]);
		out = optarg;
	}
	n = argc - optind;
	if (n < 1 || n > 2)
		return nc_usage_err("plot: wants one or two snapshots");
	if (!out)
		return nc_usage_err("plot: say where the SVG goes (-o FILE.svg)");

	models = nc_xcalloc(2, sizeof(*models));
	for (i = 0; i < n && !ret; i++) {
		m[i] = &models[i];
		names[i] = argv[optind + i];
		nc_model_init(m[i]);
		ret = nc_snapshot_load(m[i], names[i]);
		if (!ret && nc_top_per_packet(m[i], &m[i]->total) < 0) {
			nc_err("%s: no packets in the snapshot: nothing to divide by", names[i]);
			ret = NC_EXIT_NO_PACKETS;
		}
	}
	if (ret)
		goto out_free;
	ret = nc_output_check("plot", out, names, (unsigned int)n, "SVG");
	if (ret)
		goto out_free;
	pa.m = m;
	pa.names = names;
	pa.n = n;
	ret = nc_output(out, nc_plot_cb, &pa);
out_free:
	for (i = 0; i < 2; i++)
		nc_model_free(&models[i]);
	free(models);
	return ret;
}
