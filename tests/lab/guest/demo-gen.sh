#!/bin/sh
# demo-gen.sh - (tested guest of a pair) what "netcost run" starts as
# netcost-gen (NETCOST_GEN=/lab/demo-gen.sh) when half of the load runs on
# the peer: netcost run starts a sink and a sender on its own box, and
# in the pair one of them is on the other machine.  DEMO_LOAD says which:
#
#   DEMO_LOAD=rx  the peer sends, this box receives:
#                 "sink ARGS"  runs netcost-gen sink ARGS here;
#                 "send ARGS"  tells the peer to send ("pair signal rx-go";
#                              the peer sends at its own rate, see
#                              demo-peer.sh), waits the -l SECONDS of ARGS
#                              by this guest's clock, tells it to stop
#                              (rx-stop) and waits for rx-sent.
#   DEMO_LOAD=tx  this box sends, the peer receives:
#                 "send ARGS"  runs netcost-gen send ARGS here;
#                 "sink ARGS"  has the peer start its sink (tx-sink), writes
#                              ARGS' --ready-file once it is ready
#                              (tx-ready), waits for its end (tx-done).
#
# So the window is netcost run's, by the tested guest's clock, in both
# directions, and the processes run counts (rusage, task clock) are this
# box's only.  The peer's half prints no result here: its JSON is in the
# peer's out folder (demo-peer.sh); the local stand-in prints
# {"peer": "..."} so that run records what happened.
mode=$1
shift
die() { echo "demo-gen: $*" >&2; exit 1; }
# arg OPT ARGS... - the value of option OPT in ARGS
arg() {
	_o=$1; shift
	while [ $# -gt 0 ]; do
		[ "$1" = "$_o" ] && { echo "$2"; return 0; }
		shift
	done
	return 1
}

# expect NAME - make the peer's next "pair signal NAME" wake "await NAME"
# without polling ("pair wait" polls with a sleep every 0.1 s: a fork and
# an exec each time, about 5% of the tested guest's CPU over a window, in
# the figures measured): the pair listener's ": >/run/pair/NAME" opens
# this FIFO for writing, which the blocked reader then sees end.  Call it
# before whatever makes the peer send the signal.
expect() { rm -f "/run/pair/$1"; mkfifo "/run/pair/$1" || die "mkfifo /run/pair/$1"; }
# (at most 600 s: a peer that never answers must not hang the window)
await() {
	timeout 600 cat "/run/pair/$1" >/dev/null
	_rc=$?
	rm -f "/run/pair/$1"
	[ $_rc = 0 ] || die "no '$1' from the peer in 600 s"
}

# "netcost run" first asks each half to check its arguments (--check,
# a3ba2c1): that is netcost-gen's own check here, never a signal to the
# peer (a send --check that signalled rx-go had the peer send its whole
# window before the sink was up: every packet refused, the run failed)
for _a; do
	[ "$_a" = --check ] && exec netcost-gen "$mode" "$@"
done

case "$DEMO_LOAD:$mode" in
rx:sink | tx:send)
	exec netcost-gen "$mode" "$@"
	;;
rx:send)
	secs=$(arg -l "$@") || die "send: no -l SECONDS"
	pair signal rx-go || die "the peer did not take rx-go"
	sleep "$secs"
	expect rx-sent
	pair signal rx-stop || die "the peer did not take rx-stop"
	await rx-sent
	echo '{"peer": "the peer sent (demo-peer.sh); its result is in its out folder"}'
	;;
tx:sink)
	ready=$(arg --ready-file "$@") || die "sink: no --ready-file"
	expect tx-ready
	expect tx-done
	pair signal tx-sink || die "the peer did not take tx-sink"
	await tx-ready
	echo 9001 >"$ready"
	await tx-done
	echo '{"peer": "the peer received (demo-peer.sh); its result is in its out folder"}'
	;;
*)
	die "DEMO_LOAD=rx or tx, and sink or send (got '$DEMO_LOAD' '$mode')"
	;;
esac
