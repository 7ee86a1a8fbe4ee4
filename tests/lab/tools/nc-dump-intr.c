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

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "uapi/netcost.h"

static uint16_t family;

/* family_cb - pick CTRL_ATTR_FAMILY_ID out of a CTRL_CMD_NEWFAMILY */
static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(attr);
	}
	return MNL_CB_OK;
}

static struct nlmsghdr *put_request(char *buf, uint16_t type, uint16_t flags,
				    uint8_t cmd, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	return nlh;
}

/* transact - send one request and run its replies through @cb */
static int transact(struct mnl_socket *nl, struct nlmsghdr *nlh,
		    mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int n, ret = MNL_CB_OK;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	while (ret > 0) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -1;
		ret = mnl_cb_run(buf, n, nlh->nlmsg_seq, 0, cb, data);
	}
	return ret;
}

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
	nlh = put_request(buf, family, NLM_F_DUMP, NETCOST_CMD_STATS, time(NULL));
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return false;
	/* a small first read: the kernel sizes the next parts to it */
	if (!read_some(nl, st, 4096))
		return false;
	if (reset) {
		nlh = put_request(buf, family, NLM_F_ACK, NETCOST_CMD_RESET, time(NULL) + 1);
		if (transact(ctl, nlh, NULL, NULL) < 0)
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
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl, *ctl;
	struct nlmsghdr *nlh;
	struct dump_state st;

	nl = mnl_socket_open(NETLINK_GENERIC);
	ctl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || !ctl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_bind(ctl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("nc-dump-intr: netlink socket");
		return 1;
	}
	nlh = put_request(buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NETCOST_GENL_NAME);
	if (transact(ctl, nlh, family_cb, &family) < 0 || !family) {
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
