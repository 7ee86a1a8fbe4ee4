/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mark.h - where the guest's marks live: nc-qprof-mark maps a page of
 * code at QPROF_MARK_PAGE and calls into it; the plugin sees a block
 * execute at QPROF_MARK_START or QPROF_MARK_STOP and opens or closes a
 * window.
 */
#ifndef QPROF_MARK_H
#define QPROF_MARK_H

#define QPROF_MARK_PAGE		0x5eed0000UL
#define QPROF_MARK_START	(QPROF_MARK_PAGE + 0x000)
#define QPROF_MARK_STOP		(QPROF_MARK_PAGE + 0x800)

#endif /* QPROF_MARK_H */
