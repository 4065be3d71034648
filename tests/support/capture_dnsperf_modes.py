"""Captures dnsperf 2.10's output in each transport against the lab's CoreDNS into tests/fixtures/tool-output
(dnsperf-2.10-mode-*.txt), with the argv Kneeboard builds. Run as root from the repo root:
`PYTHONPATH=. .venv/bin/python tests/support/capture_dnsperf_modes.py [CASE...]` (default: every case). It takes the
lab as the tests' `lab` fixture does (its lock held, the lab up in a throwaway folder, down after), so it waits for lab
tests running meanwhile."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from kneeboard.lab import coredns, namespace
from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec

from tests.support.labs import lab_held

OUT = Path("tests/fixtures/tool-output")
NAMES = ["www.example.lab", "h0001.example.lab"]
# name → (params, clients, rate, seconds): each transport at 2,000 q/s, and DoH's ways of going wrong
CASES = {
    "udp": ({}, 2, 2000, 2),
    "tcp": ({"mode": "tcp"}, 2, 2000, 2),
    "dot": ({"mode": "dot", "port": coredns.DOT_PORT}, 2, 2000, 2),
    "doh": ({"mode": "doh", "port": coredns.DOH_PORT, "max_outstanding": 10}, 10, 2000, 2),
    "doh-post": ({"mode": "doh", "port": coredns.DOH_PORT, "doh_method": "POST", "max_outstanding": 10}, 10, 200, 2),
    "doh-dropped": ({"mode": "doh", "port": coredns.DOH_PORT}, 2, 2000, 2),  # -q 1000 over 2 connections
    "doh-badpath": ({"mode": "doh", "port": coredns.DOH_PORT, "doh_path": "/nothing-here"}, 2, 200, 2),
}


def capture(folder: Path, names: list[str]) -> None:
    """Each case named: dnsperf's stdout into its fixture."""
    for name in names:
        params, clients, rate, seconds = CASES[name]
        spec = PointSpec(namespace.LAB_ADDR, coredns.PORT, clients, rate, seconds, {"names": NAMES, "timeout_s": 1,
                                                                                    "latency_capture": False, **params})
        argv = dnsperf.build(spec, folder / name)
        run = subprocess.run(argv, capture_output=True, text=True, timeout=30, cwd=folder / name)
        text = run.stdout.replace(str(folder), "/tmp/kneeboard-point")
        (OUT / f"dnsperf-2.10-mode-{name}.txt").write_text(text)
        print(name, "rc", run.returncode, "stderr", run.stderr[:200])


if __name__ == "__main__":
    with lab_held():
        capture(Path(tempfile.mkdtemp()), sys.argv[1:] or list(CASES))
