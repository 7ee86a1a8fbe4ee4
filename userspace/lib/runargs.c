// SPDX-License-Identifier: GPL-2.0
/*
 * runargs.c - argument vectors for the processes "netcost run" starts
 * (see runargs.h).  Words split the way a shell splits a simple command:
 * blanks separate, '...' keeps everything, "..." keeps everything but
 * \" and \\, a backslash outside quotes keeps the next character; no
 * expansion of any kind.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "runargs.h"

/* nc_argv_push - append a copy of @arg */
void nc_argv_push(struct nc_argv *a, const char *arg)
{
	a->argv = nc_xrealloc(a->argv, (a->argc + 2) * sizeof(*a->argv));
	a->argv[a->argc++] = nc_xstrdup(arg);
	a->argv[a->argc] = NULL;
}

/* nc_argv_append - append copies of all of @b's words */
void nc_argv_append(struct nc_argv *a, const struct nc_argv *b)
{
	for (int i = 0; i < b->argc; i++)
		nc_argv_push(a, b->argv[i]);
}

/* nc_argv_free - free the words and the vector; @a is empty again */
void nc_argv_free(struct nc_argv *a)
{
	for (int i = 0; i < a->argc; i++)
		free(a->argv[i]);
	free(a->argv);
	a->argc = 0;
	a->argv = NULL;
}

/*
 * nc_argv_split - append the words of @s to @a.  Returns 0, or -1 for an
 * unterminated quote or a trailing backslash (nothing is appended then).
 */
int nc_argv_split(struct nc_argv *a, const char *s)
{
	struct nc_argv words = { 0 };
	char *w = nc_xcalloc(strlen(s) + 1, 1);
	size_t n = 0;
	bool in_word = false;
	char quote = 0;

	for (; *s; s++) {
		if (quote == '\'') {
			if (*s == '\'')
				quote = 0;
			else
				w[n++] = *s;
			continue;
		}
		if (quote == '"') {
			if (*s == '"')
				quote = 0;
			else if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
				w[n++] = *++s;
			else
				w[n++] = *s;
			continue;
		}
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			if (in_word) {
				w[n] = '\0';
				nc_argv_push(&words, w);
				n = 0;
				in_word = false;
			}
			continue;
		}
		in_word = true;
		if (*s == '\'' || *s == '"') {
			quote = *s;
		} else if (*s == '\\') {
			if (!s[1])
				goto bad;
			w[n++] = *++s;
		} else {
			w[n++] = *s;
		}
	}
	if (quote)
		goto bad;
	if (in_word) {
		w[n] = '\0';
		nc_argv_push(&words, w);
	}
	free(w);
	nc_argv_append(a, &words);
	nc_argv_free(&words);
	return 0;
bad:
	free(w);
	nc_argv_free(&words);
	return -1;
}

/*
 * nc_argv_join - the words as one string that nc_argv_split() splits back
 * into the same words (quoted where needed), for messages and meta.load.
 * The caller frees it.
 */
char *nc_argv_join(const struct nc_argv *a)
{
	size_t len = 1;
	char *out, *p;

	for (int i = 0; i < a->argc; i++)
		len += 4 * strlen(a->argv[i]) + 3;
	p = out = nc_xcalloc(len, 1);
	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];
		bool plain = *s && !strpbrk(s, " \t\n'\"\\");

		if (i)
			*p++ = ' ';
		if (plain) {
			p = stpcpy(p, s);
			continue;
		}
		*p++ = '\'';
		for (; *s; s++) {
			if (*s == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *s;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return out;
}

/*
 * nc_argv_value - the value of option -@sopt (as "-X V" or "-XV") or
 * --@lopt (as "--L V" or "--L=V") in @a; the last one wins, as with
 * getopt.  NULL when absent.  @sopt 0 or @lopt NULL: no such spelling.
 */
const char *nc_argv_value(const struct nc_argv *a, char sopt, const char *lopt)
{
	size_t llen = lopt ? strlen(lopt) : 0;
	const char *val = NULL;

	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];

		if (!strcmp(s, "--"))
			break;
		if (sopt && s[0] == '-' && s[1] == sopt) {
			if (s[2])
				val = s + 2;
			else if (i + 1 < a->argc)
				val = a->argv[++i];
		} else if (lopt && !strncmp(s, "--", 2) && !strncmp(s + 2, lopt, llen)) {
			if (s[2 + llen] == '=')
				val = s + 3 + llen;
			else if (!s[2 + llen] && i + 1 < a->argc)
				val = a->argv[++i];
		}
	}
	return val;
}

/* nc_argv_has - whether flag -@sopt or --@lopt (or -@sopt... ) is in @a */
bool nc_argv_has(const struct nc_argv *a, char sopt, const char *lopt)
{
	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];

		if (!strcmp(s, "--"))
			break;
		if (sopt && s[0] == '-' && s[1] == sopt)
			return true;
		if (lopt && !strncmp(s, "--", 2) && !strcmp(s + 2, lopt))
			return true;
	}
	return false;
}

/*
 * nc_sink_args_from_gen - append to @sink the sink options that follow
 * from "netcost-gen send" options @gen: the same port (-p), the same
 * --flows and --dport-per-flow (one socket per flow port), and -6 when
 * the sender talks IPv6 (-6, or a HOST with a colon).
 */
void nc_sink_args_from_gen(const struct nc_argv *gen, struct nc_argv *sink)
{
	const char *port = nc_argv_value(gen, 'p', NULL);
	const char *flows = nc_argv_value(gen, 0, "flows");
	const char *host = nc_argv_value(gen, 'H', NULL);

	if (port) {
		nc_argv_push(sink, "-p");
		nc_argv_push(sink, port);
	}
	if (flows) {
		nc_argv_push(sink, "--flows");
		nc_argv_push(sink, flows);
	}
	if (nc_argv_has(gen, 0, "dport-per-flow"))
		nc_argv_push(sink, "--dport-per-flow");
	if (nc_argv_has(gen, '6', NULL) || (host && strchr(host, ':')))
		nc_argv_push(sink, "-6");
}

/* nc_run_usage - "netcost run -h" */
void nc_run_usage(FILE *f)
{
	fprintf(f,
		"usage: netcost run (--gen 'ARGS' | --external) [--duration S] -o FILE [options]\n"
		"  --gen 'ARGS'         start 'netcost-gen send ARGS' (and its sink), e.g. '-H 10.0.0.2 -r 38000'\n"
		"  --sink 'ARGS'        more arguments for 'netcost-gen sink' (port, --flows and\n"
		"                       --dport-per-flow follow from --gen)\n"
		"  --sink-prefix 'CMD'  run the sink as CMD netcost-gen sink ... (e.g. 'in-ns')\n"
		"  --external           no generator: record whatever load runs for --duration\n"
		"  -d, --duration S     seconds to record (default 10)\n"
		"  -o, --output FILE    the snapshot (replaced, like 'netcost save')\n"
		"  --note TEXT          kept in the snapshot\n"
		"  --calibrate          calibrate the soak again (keep the system idle)\n"
		"  --calib-seconds S    calibration time (default 3)\n"
		"  --calib-file PATH    calibration cache (default: see netcost(8))\n"
		"  -j, --json           the closure and the snapshot path as JSON\n"
		"netcost-gen is looked for in $NETCOST_GEN, next to netcost, then on PATH.\n");
}

/*
 * nc_run_parse - the command line of "netcost run" into @o (zeroed, with
 * its defaults set); 0, NC_EXIT_USAGE, or NC_RUN_HELP for -h.
 */
int nc_run_parse(int argc, char **argv, struct nc_run_opts *o)
{
	enum { OPT_GEN = 256, OPT_SINK, OPT_PREFIX, OPT_EXTERNAL, OPT_NOTE,
	       OPT_CALIBRATE, OPT_CALIB_SECONDS, OPT_CALIB_FILE };
	static const struct option lopts[] = {
		{ "gen", required_argument, NULL, OPT_GEN },
		{ "sink", required_argument, NULL, OPT_SINK },
		{ "sink-prefix", required_argument, NULL, OPT_PREFIX },
		{ "external", no_argument, NULL, OPT_EXTERNAL },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "note", required_argument, NULL, OPT_NOTE },
		{ "calibrate", no_argument, NULL, OPT_CALIBRATE },
		{ "calib-seconds", required_argument, NULL, OPT_CALIB_SECONDS },
		{ "calib-file", required_argument, NULL, OPT_CALIB_FILE },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c, rc = NC_EXIT_OK;

	optind = 0;
	opterr = 0;
	while (rc == NC_EXIT_OK &&
	       (c = getopt_long(argc, argv, ":d:hjo:", lopts, NULL)) != -1) {
		switch (c) {
		case OPT_GEN:
			o->gen = optarg;
			break;
		case OPT_SINK:
			o->sink = optarg;
			break;
		case OPT_PREFIX:
			o->sink_prefix = optarg;
			break;
		case OPT_EXTERNAL:
			o->external = true;
			break;
		case 'd':
			rc = nc_parse_seconds("run", "--duration", optarg, false,
					      &o->duration);
			break;
		case 'o':
			o->out = optarg;
			break;
		case OPT_NOTE:
			o->note = optarg;
			if (nc_has_control(o->note))
				return nc_usage_err("run: --note holds a control character; write it on one line, without escapes");
			break;
		case OPT_CALIBRATE:
			o->calibrate = true;
			break;
		case OPT_CALIB_SECONDS:
			rc = nc_parse_seconds("run", "--calib-seconds", optarg, false,
					      &o->calib_seconds);
			if (!rc && o->calib_seconds < 1)
				rc = nc_usage_err("run: --calib-seconds: at least 1 s");
			break;
		case OPT_CALIB_FILE:
			o->calib_file = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			return NC_RUN_HELP;
		case ':':
			return nc_usage_err("run: %s needs a value", argv[optind - 1]);
		default:
			return nc_usage_err("run: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind < argc)
		return nc_usage_err("run: unexpected argument '%s'", argv[optind]);
	if (!o->out)
		return nc_usage_err("run: -o FILE is required (the snapshot to write)");
	if (!o->gen == !o->external)
		return nc_usage_err("run: give one of --gen 'ARGS' and --external");
	if (o->external && (o->sink || o->sink_prefix))
		return nc_usage_err("run: --sink and --sink-prefix go with --gen");
	if (o->duration < 0.5)
		return nc_usage_err("run: --duration %g: at least 0.5 s", o->duration);
	return NC_EXIT_OK;
}

/*
 * nc_run_children_argv - the sink's (@snk) and the sender's (@snd) command
 * lines from run's options @o: the generator's words in @gen, the sink's
 * in @sink (read off --gen, then --sink), the sink behind --sink-prefix
 * with --ready-file @ready, the sender for --duration.  @gen_path is
 * netcost-gen.  Returns 0, or a usage error (printed).
 */
int nc_run_children_argv(const struct nc_run_opts *o, const char *gen_path, const char *ready,
			 struct nc_argv *gen, struct nc_argv *sink,
			 struct nc_argv *snk, struct nc_argv *snd)
{
	char dur[32];

	if (nc_argv_split(gen, o->gen))
		return nc_usage_err("run: --gen: unbalanced quote in '%s'", o->gen);
	if (nc_argv_has(gen, 'l', NULL))
		return nc_usage_err("run: --gen: no -l, the sender runs for --duration");
	nc_sink_args_from_gen(gen, sink);
	if (o->sink && nc_argv_split(sink, o->sink))
		return nc_usage_err("run: --sink: unbalanced quote in '%s'", o->sink);
	if (o->sink_prefix && nc_argv_split(snk, o->sink_prefix))
		return nc_usage_err("run: --sink-prefix: unbalanced quote in '%s'",
				    o->sink_prefix);
	nc_argv_push(snk, gen_path);
	nc_argv_push(snk, "sink");
	nc_argv_append(snk, sink);
	nc_argv_push(snk, "-j");
	nc_argv_push(snk, "-q");
	nc_argv_push(snk, "--ready-file");
	nc_argv_push(snk, ready);

	snprintf(dur, sizeof(dur), "%g", o->duration);
	nc_argv_push(snd, gen_path);
	nc_argv_push(snd, "send");
	nc_argv_append(snd, gen);
	nc_argv_push(snd, "-l");
	nc_argv_push(snd, dur);
	nc_argv_push(snd, "-j");
	nc_argv_push(snd, "-q");
	return NC_EXIT_OK;
}
