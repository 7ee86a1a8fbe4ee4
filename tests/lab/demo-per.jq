# demo-per.jq - two snapshots' stages per packet of ONE direction: $per is
# "rx_packets" (the box received the scenario's packets) or "tx_packets"
# (it sent them).  netcost diff divides the transmit stages (syscall_tx,
# tx_xmit, softirq_net_tx) by sent packets and every other stage by
# received ones, which is right for a box that does both (the one-guest
# lab) but not for one side of a pair: a sender receives a handful of
# packets, a receiver sends a handful (the pair's signals, the sink's
# report).  Used by tests/lab/demo:
#   jq -rn --arg per tx_packets --slurpfile A a.json --slurpfile B b.json -f demo-per.jq
def pad($n): tostring | if length < $n then " " * ($n - length) + . else . end;
def rpad($n): tostring | if length < $n then . + " " * ($n - length) else . end;
# a stage's own cycles, as netcost diff shows them: a module before 0.6.0
# counted the NET_RX an IRQ thread runs in irq_thread and softirq_net_rx
def old_irq_thread: (.info.version // "" | split(".") | map(tonumber? // 0)) as $v
	| ($v | length) >= 2 and $v[0] == 0 and $v[1] < 6;
def cyc($s): (.total.stages[$s].cycles // 0)
	- (if $s == "irq_thread" and old_irq_thread then .total.counters.net_rx_in_irq_thread_cycles // 0 else 0 end);
def ratio($a; $b): if $a > 0 then ($b / $a * 100 | round / 100 | tostring) + "x" else "-" end;
def num: if . >= 100 or . == 0 then floor | tostring else . * 100 | round / 100 | tostring end;
# top: a packet's total as netcost counts it
def top: . as $x | [.total.stages | to_entries[] | select(.value.role == "top" and .value.unit == "cycles")
	| .key as $s | $x | cyc($s)] | add;
($per | sub("_packets"; "")) as $dir
| $A[0] as $a | $B[0] as $b
| ($a.total.counters[$per]) as $na | ($b.total.counters[$per]) as $nb
| ($a | top / $na) as $ta | ($b | top / $nb) as $tb
| "total per \($dir) packet (top-level stages): A \($ta | floor) cycles, B \($tb | floor) cycles, B/A \(ratio($ta; $tb)), \(($tb - $ta) | floor | if . > 0 then "+" + tostring else tostring end)",
  "  (A \($na) \($dir) packets, B \($nb); every stage divided by them; share: of the total's change, when it moved 1% or more)",
  "\("stage" | rpad(18))\("A cyc/pkt" | pad(11))\("B cyc/pkt" | pad(11))\("B/A" | pad(10))\("delta" | pad(10))\("share" | pad(9))  role",
  ( [ ($a.total.stages + $b.total.stages) | to_entries[]
      | select(.value.unit == "cycles") | {s: .key, role: .value.role} ]
    | unique_by(.s)
    | map(.s as $s | . + {x: (($a | cyc($s)) / $na), y: (($b | cyc($s)) / $nb)})
    | map(select(.x >= 0.5 or .y >= 0.5))
    | sort_by(if .role == "top" then 0 else 1 end, -((.y - .x) | fabs))[]
    | "\(.s | rpad(18))\(.x | num | pad(11))\(.y | num | pad(11))\(ratio(.x; .y) | pad(10))\((.y - .x) | floor | if . > 0 then "+" + tostring else tostring end | pad(10))\(if .role == "top" and (($tb - $ta) | fabs) >= 0.01 * $ta then ((.y - .x) / ($tb - $ta) * 1000 | round / 10 | tostring) + "%" else "" end | pad(9))  \(.role)" )
