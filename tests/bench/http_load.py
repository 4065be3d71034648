"""kbhttp beside vegeta (a maintained open-loop Go tool) and wrk at low concurrency, against one nginx on
127.0.0.1, in one run: p50/p99 and CPU per request at each rate, up to the highest rate vegeta holds.

    make bench-http        (RUN_S=3 CONNS=64 by default; PROFILE=1 also keeps a pprof CPU profile of kbhttp;
                            AWAKE=0 lets the CPUs idle as the host does, see tests/bench/cpu_latency.py)

vegeta is built from the Go module proxy into a cache directory outside the repository
($KB_BENCH_BIN, default /tmp/kb-bench-bin) the first time; its code is never part of Kneeboard.
Each tool's own CPU time (user + system, from wait4) is divided by the requests it completed.
kbhttp's service time (from the actual send) is what compares with vegeta's latency (vegeta times
each request from its actual send too); kbhttp's response time (from the intended send) is printed
beside it. At 2k, 5k and 10k req/s tcpdump also times each request on the wire (tests/bench/wire.py): the server's
own service time, the reference both tools' floors are read against. Writes docs/performance/http-load.md.
"""

from __future__ import annotations

import json
import os
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from kneeboard.lab import nginx  # noqa: E402
from kneeboard.tools import kbhttp, wrk  # noqa: E402
from kneeboard.stack import free_port  # noqa: E402
from tests.bench.cpu_latency import cpus_awake  # noqa: E402
from tests.bench.wire import Capture  # noqa: E402

RUN_S, CONNS = int(os.environ.get("RUN_S", "3")), int(os.environ.get("CONNS", "64"))
RATES = (2_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 80_000)
FLOOR_RATES = (2_000, 5_000, 10_000)  # where the latency floor is compared
FLOOR_TOLERANCE_MS = 0.05
VEGETA = "github.com/tsenart/vegeta/v12@v12.13.0"
BIN = Path(os.environ.get("KB_BENCH_BIN", "/tmp/kb-bench-bin"))
HELD = 0.98  # a rate is held when this share of it is answered,
LOST = 0.001  # and at most this share of the requests intended failed or was never sent


@dataclass
class Row:
    """One tool at one rate."""

    tool: str
    rate: int | None
    achieved: float
    p50_ms: float | None
    p99_ms: float | None
    cpu_us_per_req: float
    errors: int
    extra: str = ""
    wire_p50_ms: float | None = None  # the server's service time p50 on the wire during this run (FLOOR_RATES)

    def held(self) -> bool:
        """Answered at least HELD of the offered rate, with at most LOST of the intended requests failed or never sent."""
        return self.rate is not None and self.achieved >= HELD * self.rate and self.errors <= LOST * self.rate * RUN_S


def vegeta_binary() -> str:
    """vegeta v12.13.0, built from the Go module proxy into BIN the first time."""
    binary = BIN / "vegeta"
    if not binary.exists():
        go = shutil.which("go") or "/usr/local/go/bin/go"
        subprocess.run([go, "install", VEGETA], env={**os.environ, "GOBIN": str(BIN), "GOFLAGS": "-mod=mod"}, check=True, timeout=600)
    return str(binary)


def timed(argv: list[str], out: Path, stdin: str | None = None) -> float:
    """Run argv with stdout to `out`; its own CPU seconds (user + system)."""
    with out.open("w") as sink:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.PIPE, text=True)
        proc.stdin.write(stdin or "")
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}: {proc.stderr.read()[-500:]}")
    return usage.ru_utime + usage.ru_stime


def run_kbhttp(url: str, rate: int, work: Path, profile: Path | None = None) -> Row:
    """kbhttp at `rate` through CONNS connections: its service time (and response time, lateness) beside its CPU."""
    argv = [kbhttp.binary(), "run", "--url", url, "--rate", str(rate), "--duration", f"{RUN_S}s", "--connections", str(CONNS)]
    cpu = timed([*argv, *(["--cpuprofile", str(profile)] if profile else [])], work / "kbhttp.ndjson")
    result = kbhttp.parse((work / "kbhttp.ndjson").read_text(), "", 0)
    m = result.metrics
    extra = (f"response p50/p99 {m['latency_p50_ms']:.3f}/{m['latency_p99_ms']:.3f} ms, lateness p50/p99 "
             f"{m['lateness_p50_ms']}/{m['lateness_p99_ms']} ms, queued {m['queued']:.0f}, dropped {m['dropped']:.0f}")  # fmt: skip
    return Row("kbhttp", rate, m["achieved_rate"], m["service_p50_ms"], m["service_p99_ms"], 1e6 * cpu / max(m["completed"], 1),
               int(m["errors"] + m["dropped"]), extra)  # fmt: skip


def run_vegeta(url: str, rate: int, work: Path) -> Row:
    """vegeta attack at `rate` with at most CONNS connections; its report read after (its CPU only the attack's)."""
    binary, results = vegeta_binary(), work / "vegeta.bin"
    cpu = timed([binary, "attack", "-rate", str(rate), "-duration", f"{RUN_S}s", "-connections", str(CONNS),
                 "-max-connections", str(CONNS)], results, stdin=f"GET {url}\n")  # fmt: skip
    report = json.loads(subprocess.run([binary, "report", "-type=json", str(results)], capture_output=True, text=True, check=True).stdout)
    answered = round(report["requests"] * report["success"])
    return Row("vegeta", rate, report["throughput"], report["latencies"]["50th"] / 1e6, report["latencies"]["99th"] / 1e6,
               1e6 * cpu / max(answered, 1), report["requests"] - answered)  # fmt: skip


def run_wrk(url: str, conns: int, work: Path) -> Row:
    """wrk, closed loop, `conns` connections on one thread: the floor it sees at whatever rate it reaches."""
    cpu = timed(["wrk", "-t", "1", "-c", str(conns), "-d", f"{RUN_S}s", "--latency", url], work / "wrk.txt")
    m = wrk.parse((work / "wrk.txt").read_text(), "", 0).metrics
    return Row(f"wrk -c{conns}", None, m["achieved_rate"], m["latency_p50_ms"], m["latency_p99_ms"],
               1e6 * cpu / max(m["completed"] or 0, 1), int(m["errors"] or 0))  # fmt: skip


def on_the_wire(run, port: int, capture: bool) -> Row:
    """`run()`'s row, with the wire's service-time p50 during it when `capture`."""
    if not capture:
        return run()
    with Capture(port) as wire:
        row = run()
    times = wire.service_ms()
    row.wire_p50_ms = statistics.median(times) if times else None
    row.extra = (f"wire p50 {row.wire_p50_ms:.3f} ms ({len(times):,} requests, {wire.dropped} dropped by the capture); " if times else "") + row.extra
    return row


def line(row: Row) -> str:
    """One table row."""
    fmt = lambda v: "—" if v is None else f"{v:.3f}"  # noqa: E731
    rate = f"{row.rate:,}" if row.rate else "closed loop"
    return (f"| {rate} | {row.tool} | {row.achieved:,.0f} | {fmt(row.p50_ms)} / {fmt(row.p99_ms)} | {row.cpu_us_per_req:.1f} | "
            f"{row.errors} | {'yes' if row.held() else ('—' if row.rate is None else 'no')} | {row.extra} |")  # fmt: skip


def start_nginx(work: Path) -> tuple[subprocess.Popen, str]:
    """nginx from the lab's own site generator on a free loopback port."""
    port = free_port()
    work.chmod(0o755)
    nginx.write_site("127.0.0.1", port, work / "nginx")
    server = subprocess.Popen(nginx.nginx_argv(shutil.which("nginx") or "/usr/sbin/nginx", work / "nginx"), stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while subprocess.run(["curl", "-sf", "-o", "/dev/null", f"http://127.0.0.1:{port}/index.html"]).returncode != 0:
        if time.monotonic() > deadline or server.poll() is not None:
            raise RuntimeError("nginx did not start")
        time.sleep(0.1)
    return server, f"http://127.0.0.1:{port}/index.html"


def verdicts(rows: list[Row]) -> list[str]:
    """The issue's two checks: the floor at 2k/5k/10k (each tool's p50 against the wire's during its own run, and
    against each other), and the rate and CPU at vegeta's highest held rate."""
    by = {(r.tool, r.rate): r for r in rows}
    out = []
    for rate in FLOOR_RATES:
        kb, vg = by.get(("kbhttp", rate)), by.get(("vegeta", rate))
        if kb and vg and kb.p50_ms is not None and vg.p50_ms is not None:
            over = {r.tool: r.p50_ms - r.wire_p50_ms for r in (kb, vg) if r.wire_p50_ms is not None}
            verdict = "within" if abs(over.get("kbhttp", 1e9)) <= FLOOR_TOLERANCE_MS else "NOT within"
            out.append(f"{rate:,} req/s: kbhttp service p50 {kb.p50_ms:.3f} ms is {over.get('kbhttp', float('nan')):+.3f} ms from the "
                       f"wire's {kb.wire_p50_ms or float('nan'):.3f} ms ({verdict} {FLOOR_TOLERANCE_MS} ms); vegeta p50 {vg.p50_ms:.3f} ms "
                       f"is {over.get('vegeta', float('nan')):+.3f} ms from the wire's {vg.wire_p50_ms or float('nan'):.3f} ms; kbhttp − vegeta "
                       f"{kb.p50_ms - vg.p50_ms:+.3f} ms")  # fmt: skip
    held = [r.rate for r in rows if r.tool == "vegeta" and r.held()]
    if held:
        top = max(held)
        kb, vg = by[("kbhttp", top)], by[("vegeta", top)]
        out.append(f"vegeta's highest held rate {top:,} req/s: kbhttp achieved {kb.achieved:,.0f} ({kb.achieved / vg.achieved:.2f}× vegeta's "
                   f"{vg.achieved:,.0f}), held: {'yes' if kb.held() else 'no'}; CPU per request kbhttp {kb.cpu_us_per_req:.1f} µs, "
                   f"vegeta {vg.cpu_us_per_req:.1f} µs ({kb.cpu_us_per_req / vg.cpu_us_per_req:.2f}×)")  # fmt: skip
    kb_held = [r.rate for r in rows if r.tool == "kbhttp" and r.held()]
    top_vg, top_kb = max(held, default=0), max(kb_held, default=0)
    out.append(f"highest held: vegeta {top_vg:,} req/s, kbhttp {top_kb:,} req/s (of the rates tried"
               f"{f'; {top_kb / top_vg:.2f}× vegeta' if top_vg else ''})")
    return out


def main() -> None:
    """Run the comparison, print it and write docs/performance/http-load.md."""
    work = Path(tempfile.mkdtemp(prefix="kb-bench-http-"))
    server, url = start_nginx(work)
    port = int(url.split(":")[2].split("/")[0])
    profile = work / "kbhttp.pprof" if os.environ.get("PROFILE") else None
    rows: list[Row] = []
    with cpus_awake(os.environ.get("AWAKE", "1") != "0") as idle:
        print(idle, flush=True)
        try:
            rows += [run_wrk(url, 1, work), run_wrk(url, 4, work)]
            for rate in RATES:
                floor = rate in FLOOR_RATES
                vg = on_the_wire(lambda: run_vegeta(url, rate, work), port, floor)
                kb = on_the_wire(lambda: run_kbhttp(url, rate, work, profile if profile and rate == 10_000 else None), port, floor)
                rows += [kb, vg]
                print(line(kb), line(vg), sep="\n", flush=True)
                if not vg.held():
                    break  # one rate past vegeta's highest held rate is enough
        finally:
            server.terminate()
            server.wait(timeout=10)
    header = ["| offered req/s | tool | achieved req/s | p50 / p99 ms | CPU µs/request | errors + dropped | held | kbhttp detail |",
              "|---|---|---|---|---|---|---|---|"]
    table = [*header, *(line(r) for r in rows)]
    checks = verdicts(rows)
    print("\n".join(["", *table, "", *checks]))
    top = profile_top(profile) if profile else []
    write_doc(table, checks, top, idle)
    shutil.rmtree(work, ignore_errors=True)


def profile_top(profile: Path) -> list[str]:
    """`go tool pprof -top` of kbhttp's profile at 10,000 req/s (its first 25 lines)."""
    go = shutil.which("go") or "/usr/local/go/bin/go"
    done = subprocess.run([go, "tool", "pprof", "-top", "-nodecount=20", kbhttp.binary(), str(profile)], capture_output=True, text=True)
    print(done.stdout)
    return done.stdout.splitlines()[:25]


def write_doc(table: list[str], checks: list[str], top: list[str], idle: str) -> None:
    """docs/performance/http-load.md: the table, the checks, the profile when taken."""
    when = datetime.now().strftime("%Y-%m-%d %H:%M")
    text = [
        "# HTTP load: kbhttp beside vegeta and wrk (`make bench-http`)", "",
        f"Measured {when} on this machine ({os.cpu_count()} CPUs, shared with other work: load average "
        f"{os.getloadavg()[1]:.1f} over the last 5 minutes when it ended), one run, {RUN_S} s per rate, "
        f"{CONNS} connections, nginx (the lab's site) on 127.0.0.1, the generator and the server on the same CPUs. {idle}.", "",
        "kbhttp's p50/p99 here are its **service time** (from the actual send, as vegeta times its requests); its response "
        "time (from the intended send, what the report's latency_* metrics are) and its own lateness are in the last column. "
        "CPU is each tool's own user + system time divided by the requests it answered. wrk is closed loop: it has no offered rate.", "",
        "The reference for the latency floor is the wire: at 2k, 5k and 10k req/s tcpdump times each request on loopback, from its "
        "first segment to its answer's first segment (kernel timestamps), during each tool's own run. That is the server's own "
        "service time; what a tool reports above it is its own (syscalls, parsing, scheduling).", "",
        "Reading it: vegeta, like kbhttp 0.1, goes through net/http, whose transport hands each request and response between "
        "goroutines; kbhttp's senders write and read their own connection, so its service time is closer to the wire and can be "
        "below vegeta's at low rates (no floor of its own). wrk -c1 sends back to back to a server that never sleeps, which is "
        "why its p50 is below both open-loop tools': at a fixed low rate every request meets an idle server and an idle client. "
        "On a machine shared with other work, p99s and the highest held rate move from run to run.", "",
        *table, "", *(f"- {c}" for c in checks), "",
    ]
    if top:
        text += ["## Where kbhttp's CPU goes at 10,000 req/s (`PROFILE=1 make bench-http`, pprof -top)", "", "```", *top, "```", ""]
    (ROOT / "docs" / "performance" / "http-load.md").write_text("\n".join(text))


if __name__ == "__main__":
    main()
