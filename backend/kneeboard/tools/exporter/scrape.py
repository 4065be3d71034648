"""The exporter monitor's process: scrape one exporter every INTERVAL seconds for DURATION seconds.

    python -m kneeboard.tools.exporter.scrape URL HOST INTERVAL DURATION PACK[,PACK...]
    python -m kneeboard.tools.exporter.scrape --each NAME URL HOST INTERVAL DURATION PACKS [--each NAME ...]

The second form scrapes several exporters from one process (one interpreter's start per point, not one per exporter:
on a small host each start costs CPU beside the load), each on its own beat in a thread of its own, and tags each
line with its exporter's NAME.

URL is the address to connect to (the worker's pinned one), HOST the Host header (the URL's name as written).
Prints one JSON line per scrape: {"t": epoch, "values": {"pack.query": {key: raw}}, "kept": n, "dropped": n}
with raw counters, gauges and buckets, or {"t": epoch, "error": "..."} when the scrape failed. Rates and
quantiles are the adapter's business (kneeboard.tools.exporter.series). Stops at DURATION, SIGINT or SIGTERM.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from kneeboard.exporters.packs import Pack, pack
from kneeboard.tools.exporter.fetch import ScrapeError, fetch
from kneeboard.tools.exporter.select import select
from kneeboard.validators import check_host, check_metrics_url

TIMEOUT_SHARE = 0.8  # a scrape gives up after this share of the interval, so scrapes never pile up
MAX_DURATION_S = 86_400.0


def scrape_once(url: str, host: str | None, packs: list[Pack], timeout_s: float) -> dict[str, Any]:
    """One scrape as the JSON-able line the adapter reads; t is the middle of the HTTP exchange (not of the parsing
    after it, which would shift a large exposition's counters later than the server read them)."""
    began = time.time()
    try:
        body = fetch(url, timeout_s, host=host)
    except ScrapeError as exc:
        return {"t": round((began + time.time()) / 2, 4), "error": str(exc)}
    t = round((began + time.time()) / 2, 4)
    try:
        line: dict[str, Any] = select(body, packs)
    except ScrapeError as exc:
        line = {"error": str(exc)}
    return {"t": t, **line}


_PRINTING = threading.Lock()


def _print(line: dict[str, Any]) -> None:
    with _PRINTING:  # whole lines, however many exporters' threads print
        sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def beat(scrape: Callable[[float], dict[str, Any]], interval_s: float, duration_s: float, stop: threading.Event | None = None) -> None:
    """Call scrape(timeout_s) on a fixed beat (interval_s apart) until duration_s has passed (or `stop` is set); print
    one JSON line each."""
    start = time.monotonic()
    count = 0
    while time.monotonic() - start <= duration_s and not (stop and stop.is_set()):
        _print(scrape(interval_s * TIMEOUT_SHARE))
        count += 1
        pause = start + count * interval_s - time.monotonic()
        if pause > 0:
            time.sleep(pause)


def beat_times(interval: str, duration: str) -> tuple[float, float]:
    """INTERVAL and DURATION from the command line, in range; ValueError saying the bounds otherwise."""
    interval_s, duration_s = float(interval), float(duration)
    if not (0.1 <= interval_s <= 60 and 0 < duration_s <= MAX_DURATION_S):
        raise ValueError(f"interval must be 0.1..60 s and duration 0..{MAX_DURATION_S:g} s")
    return interval_s, duration_s


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def until_stopped(work: Callable[[], None]) -> int:
    """Run a scraper's loop until it ends or SIGINT/SIGTERM stops it (how the worker ends a monitor); exit code 0.
    SIGINT is set here too: a process started from a shell's background job inherits it ignored."""
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        work()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    return 0


USAGE = ("usage: python -m kneeboard.tools.exporter.scrape URL HOST INTERVAL_S DURATION_S PACK[,PACK]\n"
         "   or: python -m kneeboard.tools.exporter.scrape --each NAME URL HOST INTERVAL_S DURATION_S PACKS [--each ...]")
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_-")


def read_job(args: list[str]) -> tuple[str, str, float, float, list[Pack]]:
    """URL HOST INTERVAL DURATION PACKS, checked (the process may be run by hand); ValueError or KeyError saying why."""
    url, host = check_metrics_url(args[0]), args[1]
    name, _, port = host.rpartition(":")
    check_host(name.strip("[]") or host)
    if port and not port.isdigit():
        raise ValueError(f"HOST must be NAME[:PORT], got {host!r}")
    interval_s, duration_s = beat_times(args[2], args[3])
    return url, host, interval_s, duration_s, [pack(n) for n in args[4].split(",")]


def read_jobs(argv: list[str]) -> dict[str | None, tuple[str, str, float, float, list[Pack]]]:
    """The command line's exporters by name (None for the one-exporter form)."""
    if argv[:1] != ["--each"]:
        if len(argv) != 5:
            raise ValueError(USAGE)
        return {None: read_job(argv)}
    jobs = {}
    for at in range(0, len(argv), 7):
        group = argv[at:at + 7]
        if len(group) != 7 or group[0] != "--each" or not group[1] or set(group[1]) - NAME_CHARS or group[1] in jobs:
            raise ValueError(USAGE)
        jobs[group[1]] = read_job(group[2:])
    return jobs


def scrape_all(jobs: dict[str | None, tuple[str, str, float, float, list[Pack]]]) -> None:
    """Each exporter on its own beat, in a thread of its own; returns when every beat has ended (or one was stopped)."""
    stop = threading.Event()

    def one(name: str | None, url: str, host: str, interval_s: float, duration_s: float, packs: list[Pack]) -> None:
        tag = {"exporter": name} if name else {}
        beat(lambda timeout_s: {**scrape_once(url, host, packs, timeout_s), **tag}, interval_s, duration_s, stop)

    threads = [threading.Thread(target=one, args=(name, *job), daemon=True) for name, job in jobs.items()]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.1)
    finally:
        stop.set()


def main(argv: list[str]) -> int:
    """Entry point: one exporter (URL HOST INTERVAL DURATION PACKS) or several (--each NAME …), checked again here."""
    try:
        jobs = read_jobs(argv)
    except (ValueError, KeyError) as exc:
        print(f"exporter scrape: {exc}", file=sys.stderr)
        return 2
    return until_stopped(lambda: scrape_all(jobs))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
