#!/usr/bin/env bash
# Capacity benchmark of devsim against its own reference platform, both on
# this host, over loopback only (127.0.0.0/8).
#
# Pass 1: BENCH_DEVICES devices (default 100,000), 1 report per BENCH_INTERVAL
#         (default 1s) each, for
#         BENCH_SECONDS (default 30) after a ramp of BENCH_RAMP connections/s.
# Pass 2: fewer devices at higher total rates (BENCH_PASS2, "devices:rate ..."),
#         BENCH_PASS2_SECONDS each, to find the highest sustained acked rate.
#
# Quick check: BENCH_DEVICES=10000 BENCH_SECONDS=5 BENCH_PASS2="2000:50000" bench/bench.sh
# Every process started here is ended by PID; every run is bounded by timeout.
set -euo pipefail

HERE=$(cd "$(dirname "$0")/.." && pwd)
DEVICES=${BENCH_DEVICES:-100000}
SECONDS_RUN=${BENCH_SECONDS:-30}
RAMP=${BENCH_RAMP:-5000}
RUN_PROCS=${BENCH_RUN_PROCS:-6}
SERVE_PROCS=${BENCH_SERVE_PROCS:-6}
NSOURCES=${BENCH_SOURCE_IPS:-10}
PORT=${BENCH_PORT:-17400}
INTERVAL=${BENCH_INTERVAL:-1s}
# BENCH_PASS2="" skips pass 2 (unset means the default list).
PASS2=${BENCH_PASS2-"2000:150000 2000:200000 10000:60000 10000:80000"}
PASS2_SECONDS=${BENCH_PASS2_SECONDS:-10}
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}

WORK=$(mktemp -d /tmp/devsim-bench.XXXXXX)
BIN="$HERE/bin/devsim"
SERVE_PID=""

cleanup() {
  if [[ -n "$SERVE_PID" ]] && kill -0 "$SERVE_PID" 2>/dev/null; then
    kill -TERM "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

echo "== building devsim"
(cd "$HERE" && "$GO" build -o "$BIN" ./cmd/devsim)

SOURCES=$(seq -s, -f '127.0.0.%g' 2 $((NSOURCES + 1)))

# descendants PID: every process below PID (devsim's --procs workers...).
descendants() {
  local p
  for p in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$p"; descendants "$p"; done
}
tree() { echo "$1"; descendants "$1"; }
# cpu_ticks PID...: utime+stime of live processes, in clock ticks.
cpu_ticks() {
  local sum=0 pid f
  for pid in "$@"; do
    f=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2>/dev/null) || continue
    sum=$((sum + ${f% *} + ${f#* }))
  done
  echo "$sum"
}
hwm_kib() { awk '/VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }
# note_peak KEY PID: keep the largest VmHWM seen for KEY (a process may be gone).
note_peak() {
  local v; v=$(hwm_kib "$2"); v=${v:-0}
  if (( v > ${peak[$1]:-0} )); then peak[$1]=$v; fi
}
sys_cpu() { head -1 /proc/stat; }

start_serve() {
  "$BIN" serve --listen "127.0.0.1:$PORT" --ack-reports --procs "$SERVE_PROCS" \
    >"$WORK/serve.ndjson" 2>"$WORK/serve.err" &
  SERVE_PID=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$WORK/serve.err" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "serve did not start:"; cat "$WORK/serve.err"; exit 1
}

stop_serve() {
  kill -TERM "$SERVE_PID" 2>/dev/null || true
  wait "$SERVE_PID" 2>/dev/null || true
  SERVE_PID=""
}

# one_run NAME ARGS...: runs devsim run against the platform, measuring CPU
# (clock ticks of both process trees) and peak RSS (VmHWM per process, summed).
one_run() {
  local name=$1; shift
  local limit=$(( ${RUN_LIMIT:-120} ))
  local serve_pids serve_before stat_before
  serve_pids=$(tree "$SERVE_PID")
  serve_before=$(cpu_ticks $serve_pids)
  stat_before=$(sys_cpu)
  # The subshell waits for devsim; its cutime+cstime then hold devsim's CPU
  # and its children's (which devsim reaped).
  (
    timeout -s TERM "$limit" "$BIN" run --target "127.0.0.1:$PORT" "$@" \
      >"$WORK/$name.ndjson" 2>"$WORK/$name.err" || true
    cut -d' ' -f16,17 "/proc/$BASHPID/stat" >"$WORK/$name.cpu"
  ) &
  local wrapper=$! run_hwm="" serve_hwm="" q k
  declare -A peak=()
  while kill -0 "$wrapper" 2>/dev/null; do
    for q in $(descendants "$wrapper"); do
      if [[ $(cat "/proc/$q/comm" 2>/dev/null) == devsim ]]; then note_peak "r$q" "$q"; fi
    done
    for q in $serve_pids; do note_peak "s$q" "$q"; done
    sleep 1
  done
  wait "$wrapper" || true
  local serve_after; serve_after=$(cpu_ticks $serve_pids)
  local stat_after; stat_after=$(sys_cpu)
  run_hwm=0; serve_hwm=0
  for k in "${!peak[@]}"; do
    if [[ $k == r* ]]; then run_hwm=$((run_hwm + ${peak[$k]:-0})); else serve_hwm=$((serve_hwm + ${peak[$k]:-0})); fi
  done
  local hz; hz=$(getconf CLK_TCK)
  python3 - "$WORK/$name.ndjson" "$WORK/$name.cpu" "$hz" "$((serve_after - serve_before))" \
    "$run_hwm" "$serve_hwm" "$stat_before" "$stat_after" "$name" "$(nproc)" <<'PY'
import json, sys
path, cpufile, hz, serve_ticks, run_hwm, serve_hwm, st0, st1, name, ncpu = sys.argv[1:]
hz = float(hz)
lines = [json.loads(l) for l in open(path) if l.strip()]
if not lines or not lines[-1].get("summary"):
    print(f"[{name}] no summary; see {path}")
    sys.exit(0)
s = lines[-1]
ct = [int(x) for x in open(cpufile).read().split()]
sim_cpu = sum(ct) / hz
plat_cpu = int(serve_ticks) / hz
a0 = [int(x) for x in st0.split()[1:]]
a1 = [int(x) for x in st1.split()[1:]]
d = [y - x for x, y in zip(a0, a1)]
tot = sum(d[:8]) or 1
user, nice, system, idle, iowait, irq, softirq, steal = d[:8]
dur = s["duration_s"] or 1
conn = s["connected_max"]
sent_rate = s["sent"] / dur
acked_pct = 100.0 * s["acked"] / s["sent"] if s["sent"] else 0.0
kib_dev = int(run_hwm) / conn if conn else 0
busy = 100.0 * (tot - idle - iowait) / tot
print(f"[{name}]")
print(f"  devices connected     {conn} of {s['devices']} (logins {s['logins']}, failed {s['failed'] or 'none'})")
print(f"  connect rate          {conn / s['ramp_s'] if s['ramp_s'] else 0:,.0f} devices/s (ramp {s['ramp_s']:.1f} s)")
print(f"  reports/s sent        {sent_rate:,.0f} (offered {s['offered_rate']:,.0f}) over {dur:.1f} s")
print(f"  reports/s acked       {s['achieved_rate']:,.0f} (acks received during the reporting phase)")
print(f"  acked %               {acked_pct:.2f} % of sent ({s['acked']} of {s['sent']})")
print(f"  ack latency           p50 {s['ack_p50_ms']} ms, p99 {s['ack_p99_ms']} ms, max {s['ack_max_ms']} ms")
print(f"  CPU seconds           simulator {sim_cpu:.1f} s, platform {plat_cpu:.1f} s (process utime+stime)")
print(f"  machine CPU           {busy:.0f} % busy of {ncpu} cores: "
      f"user {100*(user+nice)/tot:.0f} %, sys {100*system/tot:.0f} %, softirq {100*softirq/tot:.0f} %, idle {100*idle/tot:.0f} %")
print(f"  peak RSS              simulator {int(run_hwm)/1024:.1f} MiB, platform {int(serve_hwm)/1024:.1f} MiB (VmHWM summed)")
print(f"  memory per device     {kib_dev:.2f} KiB (simulator)")
print(f"  devsim's own summary  cpu_s {s['cpu_s']}, rss_peak_kib {s['rss_peak_kib']} "
      f"({s['rss_peak_kib'] / conn if conn else 0:.2f} KiB/device)")
limits = []
if s["failed"]:
    limits.append(f"connection failures {s['failed']}")
if busy > 90:
    limits.append(f"CPU saturated ({busy:.0f} % busy; kernel sys+softirq {100*(system+softirq)/tot:.0f} % — "
                  "loopback TCP processing for both ends)")
if acked_pct < 99 or s["achieved_rate"] < 0.99 * s["offered_rate"]:
    limits.append("the platform falls behind the offered rate (acks lag, latency grows)")
print(f"  limited by            {'; '.join(limits) if limits else 'nothing reached: the offered rate is sustained'}")
with open(path + ".row", "w") as f:
    f.write(f"{s['devices']}\t{s['offered_rate']:.0f}\t{sent_rate:.0f}\t{s['achieved_rate']:.0f}\t{acked_pct:.2f}\t{s['ack_p50_ms']}\t{s['ack_p99_ms']}\t{busy:.0f}\n")
PY
}

echo "== platform: devsim serve --ack-reports --procs $SERVE_PROCS on 127.0.0.1:$PORT"
start_serve

echo "== pass 1: $DEVICES devices, 1 report per $INTERVAL each, ${SECONDS_RUN}s, ramp $RAMP/s, --procs $RUN_PROCS, $NSOURCES source IPs"
RUN_LIMIT=$(( DEVICES / RAMP + SECONDS_RUN + 60 )) one_run pass1 \
  --devices "$DEVICES" --interval "$INTERVAL" --duration "${SECONDS_RUN}s" --ramp "$RAMP" \
  --procs "$RUN_PROCS" --source-ips "$SOURCES"

# Let the platform settle (closed connections) between passes.
stop_serve
sleep 2
start_serve

echo "== pass 2: fewer devices, higher rates (${PASS2_SECONDS}s each)"
for spec in $PASS2; do
  n=${spec%%:*}; rate=${spec##*:}
  procs=$(( n >= 10000 ? 2 : 1 ))
  RUN_LIMIT=$(( PASS2_SECONDS + 60 )) one_run "pass2-$n-$rate" \
    --devices "$n" --rate "$rate" --duration "${PASS2_SECONDS}s" --procs "$procs" --source-ips "$SOURCES"
done
stop_serve

echo "== pass 2 table"
printf "devices\toffered/s\tsent/s\tacked/s\tacked%%\tp50ms\tp99ms\tcpu%%\n"
cat "$WORK"/pass2-*.ndjson.row 2>/dev/null | sort -n -k1,1 -k2,2
best=$(cat "$WORK"/pass2-*.ndjson.row 2>/dev/null | awk -F'\t' '$5 >= 99 && $4 >= 0.99 * $2 && $4 > b {b = $4; l = $0} END {print l}')
echo "highest sustained acked rate (acked/s >= 99 % of offered, acked >= 99 % of sent): ${best:-none}"
echo "raw NDJSON kept in $WORK"
