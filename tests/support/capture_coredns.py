"""Captures CoreDNS v1.15.0's /metrics under dnsperf load into tests/fixtures/tool-output (run from the repo root:
`.venv/bin/python tests/support/capture_coredns.py`; needs the built CoreDNS and dnsperf; uses 127.0.0.1:5300 and :9153)."""

from __future__ import annotations

import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from kneeboard.lab import coredns, processes

OUT = Path("tests/fixtures/tool-output")


def scrape() -> str:
    """CoreDNS's exposition, as its prometheus plugin serves it."""
    with urllib.request.urlopen(f"http://127.0.0.1:{coredns.METRICS_PORT}/metrics", timeout=3) as response:
        return response.read().decode()


def capture(config: str, folder: Path, queries: Path) -> None:
    """One configuration: two scrapes under 20,000 q/s and one after, and dnsperf's own output."""
    proc = coredns.start(coredns.binary(), "127.0.0.1", folder / config, config)
    try:
        argv = ["dnsperf", "-s", "127.0.0.1", "-p", str(coredns.PORT), "-d", str(queries), "-c", "2", "-Q", "20000", "-l", "4", "-S", "1"]
        load = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        early = scrape()
        time.sleep(1.0)
        later = scrape()
        stdout, stderr = load.communicate()
        base = f"coredns-1.15.0-{config}-Q20000"
        for suffix, text in (("metrics-t1.5s", early), ("metrics-t2.5s", later), ("metrics-after", scrape()), ("dnsperf", stdout)):
            (OUT / f"{base}-{suffix}.txt").write_text(text)
        print(config, "dnsperf rc", load.returncode, "stderr", stderr[:200])
    finally:
        processes.stop(proc.pid, None)


if __name__ == "__main__":
    tmp = Path(tempfile.mkdtemp())
    (tmp / "queries.txt").write_text("www.example.lab A\nh0001.example.lab A\n")
    for name in ("minimal", "log_file"):
        capture(name, tmp, tmp / "queries.txt")
