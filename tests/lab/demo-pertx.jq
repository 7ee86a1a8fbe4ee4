# demo-pertx.jq - the stages of two snapshots of a SENDING box per sent
# packet (tx_packets): "netcost diff" divides all but the transmit stages
# by received packets, of which a sender has a handful.  Used by
# tests/lab/demo for the stream scenario: jq -rn --slurpfile A a.json
# --slurpfile B b.json -f demo-pertx.jq
def pad($n): tostring | if length < $n then " " * ($n - length) + . else . end;
def rpad($n): tostring | if length < $n then . + " " * ($n - length) else . end;
def cyc($s): (.total.stages[$s].cycles // 0);
def ratio($a; $b): if $a > 0 then ($b / $a * 100 | round / 100 | tostring) + "x" else "-" end;
# top: the packet's total as netcost counts it (irq_thread net of its NET_RX)
def top: ([.total.stages[] | select(.role == "top" and .unit == "cycles") | .cycles] | add)
	- (.total.counters.net_rx_in_irq_thread_cycles // 0);
$A[0] as $a | $B[0] as $b
| ($a.total.counters.tx_packets) as $na | ($b.total.counters.tx_packets) as $nb
| ($a | top / $na) as $ta | ($b | top / $nb) as $tb
| "total per SENT packet (top-level stages): A \($ta | floor) cycles, B \($tb | floor) cycles, B/A \(ratio($ta; $tb))",
  "  (A \($na) packets sent, B \($nb); netcost diff divides by received packets: A \($a.total.counters.rx_packets), B \($b.total.counters.rx_packets))",
  "",
  "\("stage" | rpad(18))\("A cyc/tx" | pad(10))\("B cyc/tx" | pad(10))\("B/A" | pad(9))\("delta" | pad(10))  role",
  ( [ ($a.total.stages + $b.total.stages) | to_entries[]
      | select(.value.unit == "cycles") | {s: .key, role: .value.role} ]
    | unique_by(.s)
    | map(.s as $s | . + {x: (($a | cyc($s)) / $na), y: (($b | cyc($s)) / $nb)})
    | map(select(.x > 0 or .y > 0))
    | sort_by(if .role == "top" then 0 else 1 end, -(.y - .x))[]
    | "\(.s | rpad(18))\(.x | floor | pad(10))\(.y | floor | pad(10))\(ratio(.x; .y) | pad(9))\((.y - .x) | floor | if . > 0 then "+" + tostring else tostring end | pad(10))  \(.role)" ),
  "(irq_thread includes the NET_RX it runs, which softirq_net_rx counts too; the total counts it once)"
