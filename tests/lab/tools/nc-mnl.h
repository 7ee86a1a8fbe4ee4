/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nc-mnl.h - the libmnl plumbing every lab tool (tests/lab/tools/nc-*.c)
 * and bench/overhead-dump.c shares: a bound generic netlink socket, a
 * genetlink request header, one request run to its end through a callback,
 * and the "netcost" family looked up by name.  Header-only, so that each
 * tool stays one file built with one command (Makefile: nc-%, and
 * nc-bench-dump).  The tools talk raw netlink on purpose (malformed
 * messages, interrupted dumps, timing): the tool's own client is
 * userspace/lib/nl.c.
 */
#ifndef NC_MNL_H
#define NC_MNL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "uapi/netcost.h"

/* nc_mnl_open_bus - a netlink socket of @bus bound to an automatic port, or NULL */
static inline struct mnl_socket *nc_mnl_open_bus(int bus)
{
	struct mnl_socket *nl = mnl_socket_open(bus);

	if (nl && mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = errno;

		mnl_socket_close(nl);
		errno = err;
		return NULL;
	}
	return nl;
}

/* nc_mnl_open - a generic netlink socket bound to an automatic port, or NULL */
static inline struct mnl_socket *nc_mnl_open(void)
{
	return nc_mnl_open_bus(NETLINK_GENERIC);
}

/*
 * nc_mnl_put - a genetlink request for @cmd of family id @type at the start
 * of @buf: NLM_F_REQUEST | @flags, sequence number @seq, version 1.
 * Attributes go after it.
 */
static inline struct nlmsghdr *nc_mnl_put(char *buf, uint16_t type, uint16_t flags,
					  uint8_t cmd, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = NETCOST_GENL_VERSION;
	return nlh;
}

/*
 * nc_mnl_talk - send @nlh and run its replies through @cb (may be NULL)
 * until the ACK, NLMSG_DONE or an error, reading into @buf of @len bytes
 * (at least 32 KiB for dumps; may be the request's own buffer).  Returns
 * 0, or -errno (a kernel error's, or the socket's; -EBADMSG when libmnl
 * refused a reply without saying why).
 */
static inline int nc_mnl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
			      void *data, char *buf, size_t len)
{
	uint32_t seq = nlh->nlmsg_seq, portid = mnl_socket_get_portid(nl);
	int n, ret = MNL_CB_OK;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while (ret > MNL_CB_STOP) {
		n = mnl_socket_recvfrom(nl, buf, len);
		if (n < 0)
			return -errno;
		errno = 0;
		ret = mnl_cb_run(buf, n, seq, portid, cb, data);
	}
	if (ret < 0)
		return errno ? -errno : -EBADMSG;
	return 0;
}

/* nc_mnl_family_cb - CTRL_ATTR_FAMILY_ID of CTRL_CMD_GETFAMILY's reply into *@data */
static inline int nc_mnl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
			*(uint16_t *)data = mnl_attr_get_u16(attr);
	}
	return MNL_CB_OK;
}

/*
 * nc_mnl_family - the id of the generic netlink family "netcost", or 0
 * when it is not registered (the module is not loaded; errno ENOENT) or
 * cannot be asked (errno)
 */
static inline uint16_t nc_mnl_family(struct mnl_socket *nl)
{
	static char buf[1 << 15];	/* the family's reply lists its ops: room to spare */
	struct nlmsghdr *nlh;
	uint16_t id = 0;
	int err;

	nlh = nc_mnl_put(buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NETCOST_GENL_NAME);
	err = nc_mnl_talk(nl, nlh, nc_mnl_family_cb, &id, buf, sizeof(buf));
	if (err) {
		errno = -err;
		return 0;
	}
	if (!id)
		errno = ENOENT;
	return id;
}

#endif
