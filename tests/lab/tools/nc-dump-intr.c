// SPDX-License-Identifier: GPL-2.0
/*
 * nc-dump-intr - (guest test tool) a RESET that lands during a STATS dump
 * must mark the rest of the dump NLM_F_DUMP_INTR.
 *
 * Deterministic: read the first part of a multi-part dump with a small
 * buffer, send RESET on a second socket, read the rest and look for the
 * flag.  Also checks that a dump without a reset is not marked.  Prints
 * TAP lines ("ok - ..." / "not ok - ...") in the style of the guest
 * tests; exit status 0 unless the tool itself failed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nc-mnl.h"

static uint16_t family;

struct dump_state {
	int messages;		/* STATS messages read */
	int intr;		/* of which marked NLM_F_DUMP_INTR */
	int first_intr;		/* index of the first marked one, or -1 */
	bool done;
};

/* read_some - read one recv() worth of a dump; false on error */
static bool read_some(struct mnl_socket *nl, struct dump_state *st, size_t len)
{
	char buf[65536];
	const struct nlmsghdr *nlh;
	int n;

	n = mnl_socket_recvfrom(nl, buf, len);
	if (n < 0)
		return false;
	for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_type == NLMSG_DONE) {
			st->done = true;
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				st->intr++;
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (e->error) {
				errno = -e->error;
				return false;
			}
			continue;
		}
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
			if (st->first_intr < 0)
				st->first_intr = st->messages;
			st->intr++;
		}
		st->messages++;
	}
	return true;
}

/* dump - run one STATS dump; with @reset, RESET after the first read */
static bool dump(struct mnl_socket *nl, struct mnl_socket *ctl, bool reset,
		 struct dump_state *st)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	memset(st, 0, sizeof(*st));
	st->first_intr = -1;
	nlh = nc_mnl_put(buf, family, NLM_F_DUMP, NETCOST_CMD_STATS, time(NULL));
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return false;
	/* a small first read: the kernel sizes the next parts to it */
	if (!read_some(nl, st, 4096))
		return false;
	if (reset) {
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, NETCOST_CMD_RESET, time(NULL) + 1);
		if (nc_mnl_talk(ctl, nlh, NULL, NULL, buf, sizeof(buf)) < 0)
			return false;
	}
	while (!st->done) {
		if (!read_some(nl, st, 4096))
			return false;
	}
	return true;
}

int main(void)
{
	struct mnl_socket *nl, *ctl;
	struct dump_state st;

	nl = nc_mnl_open();
	ctl = nc_mnl_open();
	if (!nl || !ctl) {
		perror("nc-dump-intr: netlink socket");
		return 1;
	}
	family = nc_mnl_family(ctl);
	if (!family) {
		fprintf(stderr, "nc-dump-intr: family %s not found: %s\n",
			NETCOST_GENL_NAME, strerror(errno));
		return 1;
	}

	if (!dump(nl, ctl, false, &st)) {
		printf("not ok - STATS dump without reset: %s\n", strerror(errno));
	} else if (st.messages < 2) {
		printf("not ok - STATS dump is multi-part (%d messages)\n", st.messages);
	} else {
		printf("%s - a dump without reset is not marked interrupted (%d messages, %d marked)\n",
		       st.intr ? "not ok" : "ok", st.messages, st.intr);
	}

	if (!dump(nl, ctl, true, &st)) {
		printf("not ok - STATS dump with a reset inside: %s\n", strerror(errno));
	} else {
		printf("%s - a reset during a dump marks it NLM_F_DUMP_INTR (%d messages, first marked: #%d)\n",
		       st.intr && st.first_intr >= 1 ? "ok" : "not ok",
		       st.messages, st.first_intr);
	}
	mnl_socket_close(ctl);
	mnl_socket_close(nl);
	return 0;
}
