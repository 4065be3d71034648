"""Capture the lab's exporter output under load, for the bottleneck rules' unit tests (issue 35).

Run as root from the repository (re-runnable; it overwrites its files):

    sudo .venv/bin/python scripts/capture_bottlenecks.py                 # every case
    sudo .venv/bin/python scripts/capture_bottlenecks.py q2-rps          # some cases
    sudo .venv/bin/python scripts/capture_bottlenecks.py --explore       # the attempt matrix (prints mpstat per CPU)
    sudo .venv/bin/python scripts/capture_bottlenecks.py --out DIR ...   # elsewhere than tests/fixtures/tool-output

For each case: apply its lab settings (kneeboard.lab.actions.apply_setting), start a steady dnsperf load from the host
into the lab (Kneeboard's own dnsperf argv, bounded by -l, optionally pinned with taskset), wait 3 s, then scrape the
lab's node_exporter (http://10.77.0.2:9100/metrics) and CoreDNS's /metrics (:9153) twice, 2 s apart, while
`mpstat -P ALL 1 2` covers the same window. Files, per case:
node_exporter-<version>-lab-<case>-t1.txt / -t2.txt, coredns-1.15.0-lab-<case>-t1.txt / -t2.txt (bodies verbatim),
mpstat-lab-<case>.txt, dnsperf-lab-<case>.txt (stdout, then stderr if any; gzipped as .txt.gz when over 100,000
characters: dnsperf writes one "[Timeout]" line per lost query). It prints per case the per-CPU %usr,
%soft and %idle, the offered and achieved q/s, Udp_RcvbufErrors and CoreDNS's request counter between the scrapes.

The lab is brought up if it is down (and taken down again at the end). The script holds the lab lock the tests'
`lab` fixture takes (tests/bench/lab_session.py), so a test does not pull the lab from under it, and puts every
setting it touches back as it found it, in a `finally`. It does not change net.core.rmem_default: the overload
case overflows the lab's UDP receive buffer at the kernel's default already.
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from kneeboard.lab import actions, coredns, namespace  # noqa: E402
from kneeboard.lab.system import which  # noqa: E402
from kneeboard.tools.base import PointSpec  # noqa: E402
from kneeboard.tools.dnsperf import ADAPTER  # noqa: E402
from kneeboard.tools.runner import RunOutcome  # noqa: E402
from tests.bench.lab_session import held_lab  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "tool-output"
SETTINGS = ("lab.veth_queues", "lab.rps", "lab.gro", "lab.threaded_napi", "lab.coredns_config")
NAMES = ["www.example.lab", "h0001.example.lab"]
WARMUP_S, WINDOW_S, LOAD_S = 3, 2, 8  # the scrapes at 3 s and 5 s into an 8 s run; mpstat 1 2 between them
MAX_PLAIN = 100_000  # characters: a longer output is saved gzipped (FILE.gz), still verbatim
SATURATION = 80_000  # q/s: CoreDNS in the lab stops keeping up near 75,000 q/s on this 2-CPU VM (dnsperf on the same host)


@dataclass(frozen=True)
class Case:
    """One capture: lab settings, the server's port, and the load (Kneeboard's dnsperf argv, optionally pinned)."""

    name: str
    settings: dict
    port: int = coredns.PORT
    clients: int = 20
    rate: int = SATURATION
    params: dict = field(default_factory=dict)  # dnsperf params beyond the names (max_outstanding, timeout_s)
    pin_cpu: int | None = None  # taskset -c N for dnsperf
    note: str = ""


BASE = {"lab.gro": False, "lab.threaded_napi": False, "lab.coredns_config": coredns.DEFAULT}
ONE_QUEUE = {**BASE, "lab.veth_queues": 1, "lab.rps": False}
CASES = {c.name: c for c in (
    Case("q1-norps", ONE_QUEUE, note="1 queue, no RPS, CoreDNS at saturation"),
    Case("q1-norps-unbound-pin0", ONE_QUEUE, port=namespace.DNS_PORT, rate=150_000,
         pin_cpu=0, note="1 queue, no RPS, unbound (1 thread) at saturation, dnsperf pinned to CPU0: the most one-sided "
                         "softirq of the attempts (--explore)"),
    Case("q2-rps", {**BASE, "lab.veth_queues": 2, "lab.rps": True}, note="2 queues, RPS on all CPUs, the same load"),
    Case("overload-rcvbuf", {**BASE, "lab.veth_queues": 2, "lab.rps": False}, rate=2 * 75_000,
         params={"max_outstanding": 2_000, "timeout_s": 1.0},
         note="CoreDNS offered twice its capacity, 2,000 queries outstanding: its socket's receive buffer overflows"),
)}  # fmt: skip

# The attempts at one CPU's softirq (seed 003) with one queue and no RPS: the server, the pinning, GRO, threaded NAPI.
EXPLORE = (
    Case("coredns", ONE_QUEUE),
    Case("coredns-pin0", ONE_QUEUE, pin_cpu=0),
    Case("unbound", ONE_QUEUE, port=namespace.DNS_PORT, rate=150_000),
    Case("unbound-pin0", ONE_QUEUE, port=namespace.DNS_PORT, rate=150_000, pin_cpu=0),
    Case("coredns-gro", {**ONE_QUEUE, "lab.gro": True}),
    Case("unbound-gro-pin0", {**ONE_QUEUE, "lab.gro": True}, port=namespace.DNS_PORT, rate=150_000, pin_cpu=0),
    Case("coredns-gro-threaded", {**ONE_QUEUE, "lab.gro": True, "lab.threaded_napi": True}),
    Case("unbound-gro-threaded-pin0", {**ONE_QUEUE, "lab.gro": True, "lab.threaded_napi": True}, port=namespace.DNS_PORT,
         rate=150_000, pin_cpu=0),
)  # fmt: skip


def node_exporter_version() -> str:
    """node_exporter's version from its --version ("node_exporter, version 1.5.0 (branch…" → "1.5.0")."""
    binary = which("prometheus-node-exporter") or which("node_exporter")
    if binary is None:
        raise SystemExit("node_exporter is not installed (apt-get install prometheus-node-exporter)")
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    found = re.search(r"version (\S+)", out.stdout + out.stderr)
    if not found:
        raise SystemExit(f"cannot read node_exporter's version from: {out.stdout + out.stderr!r}")
    return found.group(1)


def dnsperf_argv(case: Case, workdir: Path, duration_s: float = LOAD_S) -> list[str]:
    """Kneeboard's own dnsperf argv for the case (no latency capture), prefixed with taskset when pinned."""
    params = {"names": NAMES, "latency_capture": False, **case.params}
    argv = ADAPTER.build(PointSpec(namespace.LAB_ADDR, case.port, case.clients, case.rate, duration_s, params), workdir)
    return ["taskset", "-c", str(case.pin_cpu), *argv] if case.pin_cpu is not None else argv


def scrape(client: httpx.Client) -> tuple[str, str]:
    """The node_exporter's and CoreDNS's expositions, verbatim, taken one right after the other."""
    node = client.get(namespace.METRICS_URL)
    dns = client.get(namespace.COREDNS_METRICS_URL)
    node.raise_for_status()
    dns.raise_for_status()
    return node.text, dns.text


def sample_sum(text: str, name: str) -> float:
    """The sum over every label set of one metric's samples in an exposition (0 when absent)."""
    return sum(s.value for family in text_string_to_metric_families(text) for s in family.samples if s.name == name)


def mpstat_average(text: str) -> dict[str, dict[str, float]]:
    """mpstat's text Average block: {cpu: {"%usr": …, "%soft": …, "%idle": …, …}} for "all" and each CPU."""
    rows = [line.split() for line in text.splitlines() if line.startswith("Average:")]
    header = next((row for row in rows if "%idle" in row), None)
    if header is None:
        return {}
    columns = header[2:]
    return {row[1]: dict(zip(columns, map(float, row[2:]))) for row in rows if row is not header and len(row) == len(header)}


def apply(settings: dict) -> None:
    """Apply lab settings in an order the kernel takes (queues before RPS: new queues start with RPS off)."""
    for name in sorted(settings, key=lambda n: n != "lab.veth_queues"):
        actions.apply_setting(name, settings[name])


def run_case(case: Case, workdir: Path, client: httpx.Client) -> dict:
    """Load, scrape twice, mpstat between; returns the case's texts and its figures."""
    apply(case.settings)
    argv = dnsperf_argv(case, workdir)
    out_file, err_file = workdir / "dnsperf.out", workdir / "dnsperf.err"
    with open(out_file, "w") as out, open(err_file, "w") as err:  # files, not pipes: a full pipe would stall dnsperf
        load = subprocess.Popen(argv, stdout=out, stderr=err)  # (one "[Timeout]" line per lost query)
    try:
        time.sleep(WARMUP_S)
        mpstat = subprocess.Popen(["mpstat", "-P", "ALL", "1", str(WINDOW_S)], stdout=subprocess.PIPE, text=True,
                                  env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})  # fmt: skip
        first_at = time.monotonic()
        first = scrape(client)
        time.sleep(max(0.0, WINDOW_S - (time.monotonic() - first_at)))
        second = scrape(client)
        cpu_text = mpstat.communicate(timeout=WINDOW_S + 10)[0]
        load.wait(timeout=LOAD_S + 30)
    finally:
        if load.poll() is None:
            load.kill()
            load.wait()
    out, err = out_file.read_text(), err_file.read_text()
    read = ADAPTER.read(RunOutcome(argv=argv, stdout=out, stderr=err, exit_code=load.returncode))
    rcvbuf, requests = (sample_sum(second[i], name) - sample_sum(first[i], name)
                        for i, name in ((0, "node_netstat_Udp_RcvbufErrors"), (1, "coredns_dns_requests_total")))  # fmt: skip
    return {"case": case, "argv": argv, "first": first, "second": second, "mpstat": cpu_text, "dnsperf": out + err,
            "metrics": read.metrics, "error": read.error, "cpus": mpstat_average(cpu_text), "rcvbuf": rcvbuf,
            "requests": requests, "scrape_gap_s": WINDOW_S}  # fmt: skip


def save(result: dict, out: Path, version: str) -> list[Path]:
    """Write the case's six files; returns their paths."""
    name = result["case"].name
    files = {f"node_exporter-{version}-lab-{name}-t1.txt": result["first"][0],
             f"node_exporter-{version}-lab-{name}-t2.txt": result["second"][0],
             f"coredns-{coredns.VERSION.lstrip('v')}-lab-{name}-t1.txt": result["first"][1],
             f"coredns-{coredns.VERSION.lstrip('v')}-lab-{name}-t2.txt": result["second"][1],
             f"mpstat-lab-{name}.txt": result["mpstat"], f"dnsperf-lab-{name}.txt": result["dnsperf"]}  # fmt: skip
    written = []
    for file, text in files.items():
        plain, packed = out / file, out / f"{file}.gz"
        if len(text) > MAX_PLAIN:  # one "[Timeout]" line per lost query: an overload's output is megabytes
            with gzip.GzipFile(packed, "wb", mtime=0) as gz:
                gz.write(text.encode())
            plain.unlink(missing_ok=True)
        else:
            plain.write_text(text)
            packed.unlink(missing_ok=True)
        written.append(packed if len(text) > MAX_PLAIN else plain)
    return written


def report(result: dict) -> str:
    """The case's figures in a few lines."""
    case, m = result["case"], result["metrics"]
    cpus = "; ".join(f"CPU{cpu} usr {v.get('%usr', 0):.1f} sys {v.get('%sys', 0):.1f} soft {v.get('%soft', 0):.1f} "
                     f"idle {v.get('%idle', 0):.1f}" for cpu, v in result["cpus"].items() if cpu != "all")  # fmt: skip
    return "\n".join([
        f"== {case.name}: {case.note or case.settings}",
        f"   argv: {' '.join(result['argv'])}",
        f"   offered {case.rate:,} q/s, achieved {m.get('achieved_rate', 0):,.0f} q/s, sent {m.get('sent', 0):,.0f}, "
        f"lost {m.get('lost', 0):,.0f} ({m.get('loss_pct', 0):.2f} %){'; ' + result['error'] if result['error'] else ''}",
        f"   mpstat {WINDOW_S} s: {cpus}",
        f"   between the scrapes ({result['scrape_gap_s']} s): Udp_RcvbufErrors +{result['rcvbuf']:,.0f}, "
        f"coredns_dns_requests_total +{result['requests']:,.0f} ({result['requests'] / result['scrape_gap_s']:,.0f}/s)",
    ])  # fmt: skip


def main() -> int:
    """Parse arguments, take the lab lock, bring the lab up if needed, run the cases, restore, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help=f"cases to capture (default: all): {', '.join(CASES)}")
    parser.add_argument("--explore", action="store_true", help="run the one-queue attempt matrix instead (no files)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the files go")
    args = parser.parse_args()
    if unknown := set(args.cases) - set(CASES):
        parser.error(f"unknown case(s) {', '.join(sorted(unknown))}; the cases are {', '.join(CASES)}")
    version = node_exporter_version()
    cases = EXPLORE if args.explore else [CASES[n] for n in args.cases or CASES]
    with held_lab(), tempfile.TemporaryDirectory(prefix="kb-capture-") as tmp, httpx.Client(timeout=5) as client:
        before = {name: actions.read_setting(name) for name in SETTINGS}
        print(f"node_exporter {version}, CoreDNS {coredns.VERSION}; lab settings before: {before}", flush=True)
        try:
            for case in cases:
                result = run_case(case, Path(tmp), client)
                if not args.explore:
                    save(result, args.out, version)
                print(report(result), flush=True)
                time.sleep(1)  # the next case starts from a server at rest
        finally:
            apply({name: value for name, value in before.items() if value is not None})
            print(f"lab settings restored: {({name: actions.read_setting(name) for name in SETTINGS})}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
