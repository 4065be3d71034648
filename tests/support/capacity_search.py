"""A capacity search against `kbhttp serve --workers N --service-time D`, each trial a real `kbhttp run` point.

Shared by tests/integration/test_capacity_search.py and tests/bench/capacity_search.py: the trial is built by the
kbhttp adapter (the argv a campaign's point would run) and read by its parser.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from kneeboard.search.algorithm import Trial
from kneeboard.tools import kbhttp
from kneeboard.tools.base import PointSpec
from tests.support.kbhttp_server import serving


@contextlib.contextmanager
def known_capacity(workers: int, service_time_ms: float, lifetime_s: float = 120) -> Iterator[int]:
    """The known-capacity server on loopback; yields its port."""
    with serving("--workers", str(workers), "--service-time", f"{service_time_ms:g}ms", lifetime_s=lifetime_s) as port:
        yield port


def server_capacity(port: int) -> dict:
    """What the server measured: {"workers", "service_time_s", "capacity", "served", "refused", "answer_late_s"}."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_capacity", timeout=5) as answer:
        return json.load(answer)


def kbhttp_trial(port: int, connections: int):
    """trial → the point's metrics (with its offered rate), run as a campaign's kbhttp point would be."""

    def measure(trial: Trial) -> dict:
        spec = PointSpec(host="127.0.0.1", port=port, concurrency=connections, rate=trial.rate, duration_s=trial.duration_s,
                         params={"path": "/", "timeout_s": 2.0})  # fmt: skip
        with tempfile.TemporaryDirectory() as work:
            argv = kbhttp.build(spec, Path(work))
            done = subprocess.run(argv, capture_output=True, text=True, timeout=trial.duration_s + 30, check=False)
        result = kbhttp.ADAPTER.parse_final(done.stdout, done.stderr, done.returncode)
        return {**(result.metrics or {}), "offered_rate": trial.rate}

    return measure
