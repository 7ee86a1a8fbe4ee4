// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - the libmnl generic netlink client under every live subcommand
 * ("netcost info/dump/reset/config/watch/save/export"): open the socket
 * with extended ACKs, resolve the "netcost" family, run a request to its
 * end and turn kernel errors into one clear line and an exit status.
 * Modelled on iproute2's lib/mnl_utils.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "uapi/netcost.h"
#include "common.h"
#include "nl.h"

struct nc_nl_run {
	struct nc_nl *nl;
	uint8_t cmd;			/* for the messages */
	mnl_cb_t cb;
	void *data;
	int error;			/* kernel's errno, positive */
	const char *extack;		/* points into nl->buf */
	bool cb_failed;			/* @cb refused a reply, and said why */
};

/* The lookup's reply: the id and version */
struct nc_nl_family {
	uint16_t id;
	uint32_t version;
};

static const char *const nc_nl_cmd_names[] = {
	[NETCOST_CMD_INFO]		= "INFO",
	[NETCOST_CMD_STATS]		= "STATS",
	[NETCOST_CMD_RESET]		= "RESET",
	[NETCOST_CMD_CONFIG_GET]	= "CONFIG_GET",
	[NETCOST_CMD_CONFIG_SET]	= "CONFIG_SET",
	[NETCOST_CMD_TASKS]		= "TASKS",
};
/* a command added to the UAPI needs its name here (errors say "?" else) */
_Static_assert(ARRAY_SIZE(nc_nl_cmd_names) == NETCOST_CMD_MAX + 1, "nc_nl_cmd_names");

/* nc_nl_cmd_name - the name of a command, for error messages */
const char *nc_nl_cmd_name(uint8_t cmd)
{
	if (cmd < ARRAY_SIZE(nc_nl_cmd_names) && nc_nl_cmd_names[cmd])
		return nc_nl_cmd_names[cmd];
	return "?";
}

/*
 * nc_nl_extack_msg - the NLMSGERR_ATTR_MSG text of an NLMSG_ERROR or
 * NLMSG_DONE message, or NULL.  With NETLINK_CAP_ACK the kernel does not
 * echo our request back, so the TLVs follow the error header directly.
 */
static const char *nc_nl_extack_msg(const struct nlmsghdr *nlh)
{
	const struct nlattr *attr;
	unsigned int off;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		off = sizeof(int);
	} else {
		const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

		off = sizeof(*err);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += mnl_nlmsg_get_payload_len(&err->msg);
	}
	if (mnl_nlmsg_get_payload_len(nlh) < off)
		return NULL;
	mnl_attr_for_each(attr, nlh, off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
			return mnl_attr_get_str(attr);
	}
	return NULL;
}

/* nc_nl_error_cb - NLMSG_ERROR: an ACK (error 0) or the kernel's refusal */
static int nc_nl_error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct nc_nl_run *run = data;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		run->error = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	run->error = err->error < 0 ? -err->error : err->error;
	run->extack = nc_nl_extack_msg(nlh);
	return MNL_CB_ERROR;
}

/* nc_nl_done_cb - NLMSG_DONE ends a dump, with the dump's error if any */
static int nc_nl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nc_nl_run *run = data;
	int err = 0;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		run->nl->dump_intr = true;
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err < 0) {
		run->error = -err;
		run->extack = nc_nl_extack_msg(nlh);
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

/* nc_nl_data_cb - a reply: note an interrupted dump, hand it on */
static int nc_nl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nc_nl_run *run = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		run->nl->dump_intr = true;
	if (!run->cb)
		return MNL_CB_OK;
	if (run->cb(nlh, run->data) == MNL_CB_OK)
		return MNL_CB_OK;
	run->cb_failed = true;
	return MNL_CB_ERROR;
}

/*
 * nc_nl_report - one line for a failed request, and its exit status.
 * EPERM gets its own status and says which capability is missing.
 */
static int nc_nl_report(const struct nc_nl_run *run)
{
	const char *cmd = nc_nl_cmd_name(run->cmd);

	if (run->error == EPERM || run->error == EACCES) {
		/* every read (the module's open_read lets others read), not a change */
		if (run->cmd != NETCOST_CMD_RESET && run->cmd != NETCOST_CMD_CONFIG_SET)
			nc_err("permission denied: %s needs CAP_NET_ADMIN (run as root, or load the module with open_read=1)",
			       cmd);
		else
			nc_err("permission denied: %s needs CAP_NET_ADMIN (run as root)", cmd);
		return NC_EXIT_PERM;
	}
	if (run->extack)
		nc_err("%s: %s (%s)", cmd, run->extack, strerror(run->error));
	else
		nc_err("%s: %s", cmd, strerror(run->error));
	return NC_EXIT_ERROR;
}

/*
 * nc_nl_request - start a request for @cmd in nl->buf, with NLM_F_REQUEST,
 * NLM_F_ACK and @flags (NLM_F_DUMP for a dump).  Attributes go after it.
 */
struct nlmsghdr *nc_nl_request(struct nc_nl *nl, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = NETCOST_GENL_VERSION;
	return nlh;
}

/*
 * nc_nl_parse - one buffer of @len bytes of replies to request @seq,
 * through the callbacks.  Returns libmnl's MNL_CB_OK (more to come),
 * MNL_CB_STOP (done) or MNL_CB_ERROR (run->error, run->cb_failed or errno).
 */
static int nc_nl_parse(struct nc_nl *nl, void *buf, int len, unsigned int seq,
		       struct nc_nl_run *run)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR]	= nc_nl_error_cb,
		[NLMSG_DONE]	= nc_nl_done_cb,
	};
	int ret;

	errno = 0;
	ret = mnl_cb_run2(buf, len, seq, nl->portid, nc_nl_data_cb, run, ctl, ARRAY_SIZE(ctl));
	/*
	 * libmnl stops, before any callback, at a part flagged
	 * NLM_F_DUMP_INTR (EINTR).  Note it and read the dump to its
	 * end: nc_fetch() takes an interrupted dump again.
	 */
	if (ret == MNL_CB_ERROR && errno == EINTR && !run->error && !run->cb_failed) {
		const struct nlmsghdr *m;
		int left = len;

		nl->dump_intr = true;
		ret = MNL_CB_OK;
		for (m = buf; mnl_nlmsg_ok(m, left); m = mnl_nlmsg_next(m, &left)) {
			if (m->nlmsg_seq == seq && m->nlmsg_type == NLMSG_DONE)
				ret = MNL_CB_STOP;
		}
	}
	return ret;
}

/*
 * nc_nl_exchange - send @nlh and read replies until the ACK, NLMSG_DONE or
 * an error, passing each reply to run->cb.  Returns MNL_CB_STOP when the
 * request succeeded; otherwise run->error holds the kernel's errno (0 for
 * a local failure, already reported unless it is libmnl's).
 */
static int nc_nl_exchange(struct nc_nl *nl, struct nlmsghdr *nlh,
			  struct nc_nl_run *run)
{
	unsigned int seq = nlh->nlmsg_seq;
	int ret;

	run->nl = nl;
	run->cmd = ((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd;
	nl->dump_intr = false;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		nc_err("netlink send: %s", strerror(errno));
		run->cb_failed = true;
		return MNL_CB_ERROR;
	}
	do {
		ret = mnl_socket_recvfrom(nl->sock, nl->buf, NC_NL_BUFSIZE);
		if (ret < 0) {
			nc_err("netlink receive: %s", strerror(errno));
			run->cb_failed = true;
			return MNL_CB_ERROR;
		}
		ret = nc_nl_parse(nl, nl->buf, ret, seq, run);
	} while (ret > MNL_CB_STOP);
	return ret;
}

static int nc_nl_lookup(struct nc_nl *nl, uint16_t *id, struct nc_nl_run *run);

/*
 * nc_nl_family_gone - whether the family this socket resolved is no longer
 * there: not registered any more (the module was unloaded), or registered
 * again under another id (unloaded and loaded again)
 */
static bool nc_nl_family_gone(struct nc_nl *nl)
{
	struct nc_nl_run run = { 0 };
	uint16_t id = 0;

	if (nc_nl_lookup(nl, &id, &run) == MNL_CB_STOP)
		return id != nl->family;
	return run.error == ENOENT;
}

/*
 * nc_nl_finish - the exit status of a request that ended with @ret
 * (nc_nl_exchange()), after printing why it failed.  ENOENT and
 * EPROTONOSUPPORT come from genetlink when the family id is unknown, and
 * EOPNOTSUPP when the id went to another family: when the netcost family
 * is indeed gone, the module was unloaded during the request (exit 3, as
 * when it was never loaded).
 */
static int nc_nl_finish(struct nc_nl *nl, int ret, struct nc_nl_run *run)
{
	if (ret == MNL_CB_STOP)
		return NC_EXIT_OK;
	if (run->cb_failed)
		return NC_EXIT_ERROR;
	if (!run->error) {
		/* libmnl's own checks: sequence, port id, length */
		nc_err("%s: invalid kernel response: %s",
		       nc_nl_cmd_name(run->cmd), strerror(errno ? errno : EBADMSG));
		return NC_EXIT_ERROR;
	}
	if ((run->error == ENOENT || run->error == EPROTONOSUPPORT ||
	     run->error == EOPNOTSUPP) && nc_nl_family_gone(nl)) {
		nc_err("%s: the kernel module was unloaded during the request (%s); load it again (insmod netcost.ko)",
		       nc_nl_cmd_name(run->cmd), strerror(run->error));
		return NC_EXIT_NO_MODULE;
	}
	return nc_nl_report(run);
}

/*
 * nc_nl_talk - run a request (see nc_nl_exchange) with @cb for each reply.
 * Returns 0, or the exit status after printing why.  nl->dump_intr tells
 * whether a dump was inconsistent.
 */
int nc_nl_talk(struct nc_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct nc_nl_run run = { .cb = cb, .data = data };

	return nc_nl_finish(nl, nc_nl_exchange(nl, nlh, &run), &run);
}

/*
 * nc_nl_replay - the end of nc_nl_talk() for @len bytes of recorded
 * replies to command @cmd with sequence number @seq: the same callbacks,
 * checks and exit status, with no request sent (tests, fuzzing).
 */
int nc_nl_replay(struct nc_nl *nl, void *buf, size_t len, unsigned int seq, uint8_t cmd,
		 mnl_cb_t cb, void *data)
{
	struct nc_nl_run run = { .nl = nl, .cmd = cmd, .cb = cb, .data = data };

	nl->dump_intr = false;
	return nc_nl_finish(nl, nc_nl_parse(nl, buf, (int)len, seq, &run), &run);
}

/* nc_nl_family_cb - CTRL_CMD_GETFAMILY's reply: the id and version */
static int nc_nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nc_nl_family *nl = data;
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_FAMILY_ID:
			if (mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
				nl->id = mnl_attr_get_u16(attr);
			break;
		case CTRL_ATTR_VERSION:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
				nl->version = mnl_attr_get_u32(attr);
			break;
		}
	}
	return MNL_CB_OK;
}

/*
 * nc_nl_lookup - CTRL_CMD_GETFAMILY for nl->name ("netcost"): its id into
 * @id.  Returns nc_nl_exchange()'s result; run->error is ENOENT when no
 * such family is registered.
 */
static int nc_nl_lookup(struct nc_nl *nl, uint16_t *id, struct nc_nl_run *run)
{
	struct nc_nl_family fam = { 0 };
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	int ret;

	run->cb = nc_nl_family_cb;
	run->data = &fam;
	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, nl->name ? nl->name : NETCOST_GENL_NAME);
	ret = nc_nl_exchange(nl, nlh, run);
	run->data = NULL;	/* @fam ends here */
	*id = fam.id;
	if (ret == MNL_CB_STOP)
		nl->family_version = fam.version;
	return ret;
}

/*
 * nc_nl_resolve - look the "netcost" family up by name.  ENOENT means the
 * module is not loaded, the most common failure of all: say so plainly.
 */
static int nc_nl_resolve(struct nc_nl *nl)
{
	struct nc_nl_run run = { 0 };

	if (nc_nl_lookup(nl, &nl->family, &run) == MNL_CB_STOP) {
		if (nl->family)
			return NC_EXIT_OK;
		nc_err("invalid kernel response: no id for family \"%s\"",
		       NETCOST_GENL_NAME);
		return NC_EXIT_ERROR;
	}
	if (run.error == ENOENT) {
		nc_err("kernel module not loaded (insmod netcost.ko)");
		return NC_EXIT_NO_MODULE;
	}
	if (run.cb_failed)
		return NC_EXIT_ERROR;
	nc_err("cannot resolve the generic netlink family \"%s\": %s",
	       NETCOST_GENL_NAME, strerror(run.error ? run.error : errno));
	return NC_EXIT_ERROR;
}

/*
 * nc_nl_open - open and bind a generic netlink socket with extended and
 * capped ACKs, and resolve the family.  Returns 0, or the exit status
 * after printing why; on failure nothing is left to close.
 */
int nc_nl_open(struct nc_nl *nl)
{
	int one = 1;
	int ret = NC_EXIT_ERROR;

	memset(nl, 0, sizeof(*nl));
	nl->seq = (unsigned int)time(NULL);
	nl->buf = malloc(NC_NL_BUFSIZE);
	if (!nl->buf) {
		nc_err("out of memory");
		return NC_EXIT_ERROR;
	}
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock) {
		nc_err("cannot open a generic netlink socket: %s", strerror(errno));
		goto err_free_buf;
	}
	/* best effort: older kernels lack them, errors are then bare */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		nc_err("cannot bind the netlink socket: %s", strerror(errno));
		goto err_close_sock;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	ret = nc_nl_resolve(nl);
	if (ret)
		goto err_close_sock;
	return NC_EXIT_OK;

err_close_sock:
	mnl_socket_close(nl->sock);
	nl->sock = NULL;
err_free_buf:
	free(nl->buf);
	nl->buf = NULL;
	return ret;
}

/* nc_nl_close - undo nc_nl_open(), in reverse */
void nc_nl_close(struct nc_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	free(nl->buf);
	nl->buf = NULL;
}
