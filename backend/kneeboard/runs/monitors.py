"""Monitors beside a point (mpstat, ping, node, exporter): started with it (no lead sleep), stopped with SIGINT after it.

The exporter monitors of a point share one scraper process (its `--each` form): one interpreter's start per point
instead of one per exporter, which on a small host would take CPU from the load. Each exporter is also read once right
before the load starts and once after it ends, here, synchronously: its counters' increase between those two
readings is the point's server-side count (the 1 s scrapes stay for the charts and the gauges). The reading after the load
is taken again until the server's request counter stops rising: a server still answering after the tool gave up counts
those queries in this point, not the next one."""

from __future__ import annotations

import dataclasses
import json
import signal
import threading
import time
from pathlib import Path

from kneeboard.tools import runner
from kneeboard.tools.base import PointSpec, Sample, ToolInputError
from kneeboard.exporters.packs import pack
from kneeboard.tools.exporter import series
from kneeboard.tools.exporter.adapter import SCRAPER
from kneeboard.tools.exporter.scrape import scrape_once
from kneeboard.tools.process.adapter import is_local, over_the_load
from kneeboard.tools.registry import adapter

EXPORTER, PROCESS = "exporter", "process"
TAIL_S = 4.0  # a monitor's own duration runs this far past the point; it is stopped as soon as the point ends
FIRST_MARGIN_S = 0.4  # a monitor is stopped no sooner than its first interval and this much more: a short point still gets a sample
READING_TIMEOUT_S = 1.0  # a reading that brackets the load: a slow exporter delays the load's start by at most this
FIRST_READING_S = 3.0  # the load waits at most this for the process monitor's first reading (an interpreter's start)
SETTLE_EVERY_S = 0.1  # after the load, the exporters are read again this often while their request counters still rise...
SETTLE_MAX_S = 3.0  # ...for at most this long (a server other clients keep busy never stops)
SETTLED_SHARE = 0.01  # "stopped": rising at under this share of its rate over the load


class MonitorSet:
    """The monitors of one point, each a process run in its own thread."""

    def __init__(self, monitors: list[dict], duration_s: float, workdir: Path, scraped: dict | None = None) -> None:
        self.stop_event = threading.Event()
        self.runs: list[tuple[str, dict[str | None, str], object, list]] = []  # kind, labels by exporter name (None: one)
        self.warnings: list[str] = []
        self.summaries: dict[str, dict] = {}  # each monitor's own summary (its result's extra), by label (label_of)
        self.samples: list[Sample] = []
        self.started, self.began = time.monotonic(), time.time()
        self.load_began = self.began
        self.load_ended: float | None = None
        self.duration_s = duration_s
        self.readers: dict[str, tuple[str, str, list]] = {}  # exporter label → (url, Host header, packs) for the bracketing readings
        self.before: dict[str, dict] = {}
        self.after: dict[str, dict] = {}
        self.first_lines: list[threading.Event] = []  # set by the monitors whose first line must come before the load
        self.first_interval_s = min(5.0, max((float(m.get("interval_s", 1)) for m in monitors), default=0.0))
        documents = {k: v for k, v in (scraped or {}).items() if v}  # the stored target's endpoints, never the plan's
        self.prometheus = documents.get("prometheus")  # read by PromQL after the point (kneeboard.promql)
        exporters: dict[str, list[str]] = {}  # label → the scraper's arguments for it
        for monitor in with_process(monitors, documents):
            if (built := self._build(monitor, duration_s, workdir, documents)) is None:
                continue
            if monitor["kind"] == EXPORTER:
                exporters[label_of(monitor)] = args = built[len(SCRAPER):]
                self.readers[label_of(monitor)] = (args[0], args[1], [pack(n) for n in args[4].split(",")])
            else:
                self._run(monitor["kind"], {None: label_of(monitor)}, built, duration_s + TAIL_S)
        if exporters:
            first = next(iter(exporters.values()))
            each = [arg for label, args in exporters.items() for arg in ("--each", label.partition(".")[2], *args)]
            self._run(EXPORTER, {label.partition(".")[2]: label for label in exporters},
                      [*SCRAPER, *(each if len(exporters) > 1 else first)], duration_s + TAIL_S)

    def _build(self, monitor: dict, duration_s: float, workdir: Path, documents: dict) -> list[str] | None:
        """The monitor's argv from its adapter (checked and pinned there), None with a warning when it cannot start."""
        kind, label = monitor["kind"], label_of(monitor)
        params = {k: v for k, v in monitor.items() if k != "kind"}
        spec = PointSpec(host=params.get("host", "127.0.0.1"), port=0, concurrency=1, rate=None, duration_s=duration_s + TAIL_S,
                         params=params, documents=documents)
        try:
            argv = adapter(kind).build(spec, workdir)
        except ToolInputError as exc:
            self.warnings.append(f"monitor {label} not started: {exc}")
            return None
        return argv

    def _run(self, kind: str, labels: dict[str | None, str], argv: list[str], run_s: float) -> None:
        """Run one monitor process in a thread of its own until stop(); the process monitor's first reading is the
        load's start line (the load waits for it in __enter__)."""
        env = adapter(kind).env()
        box: list = []
        first = threading.Event()
        if kind == PROCESS:
            self.first_lines.append(first)
        thread = threading.Thread(
            target=lambda: box.append(runner.run(argv, timeout_s=run_s + 10, should_cancel=self.stop_event.is_set,
                                                 on_line=lambda _line: first.set(),
                                                 env=env, stop_signal=signal.SIGINT, output_limit=8 * 1_048_576 * len(labels))),
            daemon=True,
        )  # fmt: skip
        thread.start()
        self.runs.append((kind, labels, thread, box))

    def __enter__(self) -> MonitorSet:
        deadline = time.monotonic() + FIRST_READING_S
        for first in self.first_lines:  # a reading that comes after the load began would miss its start
            first.wait(max(0.0, deadline - time.monotonic()))
        self.before = self._read_exporters()  # the load starts right after this returns
        self.load_began = time.time()
        return self

    def _read_exporters(self) -> dict[str, dict]:
        """One reading of every exporter now, at once (a thread each): {label: scraper line}."""
        found: dict[str, dict] = {}

        def read(label: str, url: str, host: str, packs: list) -> None:
            found[label] = scrape_once(url, host, packs, READING_TIMEOUT_S)

        threads = [threading.Thread(target=read, args=(label, *reader), daemon=True) for label, reader in self.readers.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(READING_TIMEOUT_S + 1)
        return found

    def _settled(self, after: dict[str, dict]) -> dict[str, dict]:
        """The readings after the load, taken again every SETTLE_EVERY_S while any exporter's request counter still
        rises (series.still_counting), for at most SETTLE_MAX_S: the last one is the point's closing reading."""
        deadline = time.monotonic() + SETTLE_MAX_S
        while after and time.monotonic() < deadline:
            time.sleep(SETTLE_EVERY_S)
            again = self._read_exporters()
            rising = [label for label, (_, _, packs) in self.readers.items()
                      if series.still_counting(self.before.get(label) or {}, after.get(label) or {}, again.get(label) or {},
                                               packs, SETTLED_SHARE)]
            after = {label: again[label] if "values" in (again.get(label) or {}) else reading for label, reading in after.items()}
            if not rising:
                break
        return after

    def __exit__(self, *_exc) -> None:
        """Stop the monitors however the point ended; their samples are kept in `samples`."""
        self.samples = self.stop()

    def stop(self) -> list[Sample]:
        """Stop every monitor (SIGINT keeps mpstat's JSON whole) and return their samples."""
        if self.stop_event.is_set():
            return self.samples
        self.load_ended = time.time()  # the point's tool has ended: a scrape after this reads no load
        self.after = self._settled(self._read_exporters())
        if self.runs:  # a point as short as an interval ends before the monitor's first line
            time.sleep(max(0.0, self.started + self.first_interval_s + FIRST_MARGIN_S - time.monotonic()))
        self.stop_event.set()
        samples: list[Sample] = []
        for kind, labels, thread, box in self.runs:
            thread.join(timeout=15)
            if not box:
                self.warnings += [f"monitor {label} did not stop" for label in labels.values()]
                continue
            box[0].cancelled = False  # a monitor is always stopped by us: that is its normal end
            for name, label in labels.items():
                outcome = box[0] if name is None or len(labels) == 1 else _lines_of(box[0], name)
                samples += self._file(kind, label, adapter(kind).read(outcome))  # a monitor never fails the point
        if self.prometheus:
            from kneeboard.promql.evaluate import after_point

            sending_ended = min(self.load_ended, self.load_began + self.duration_s)  # dnsperf waits for late answers after it
            read = after_point(self.prometheus, self.load_began, sending_ended)
            samples, self.warnings = samples + read.samples, self.warnings + read.warnings
            self.summaries.update({read.label: read.summary} if read.summary else {})
        return samples

    def _file(self, kind: str, label: str, result) -> list[Sample]:  # noqa: ANN001 - a PointResult
        """A monitor's result: its errors become the point's warnings, its summary is filed under its label (an
        exporter's over the load's own window: _exporter_over_the_load)."""
        if kind == EXPORTER:
            self._exporter_over_the_load(label, result)
        elif kind == PROCESS and result.extra:
            over_the_load(result.extra, self.duration_s)  # the CPU's window, but not the tool's wait for late answers after it
        own = result.extra.pop("warnings", None) if result.extra else None
        self.warnings += [f"monitor {label}: {w}" for w in [*(own or []), *([result.error] if result.error else [])]]
        if result.extra:
            self.summaries[label] = result.extra
        return [Sample(t=s.t, values=s.values, series=s.series if s.series != "point" else kind) for s in result.samples]

    def _exporter_over_the_load(self, label: str, result) -> None:  # noqa: ANN001 - a PointResult
        """An exporter's summary over the load: from the two readings that bracket it, else from the scrapes that lie
        inside it (never from those after it), else none, said so."""
        before, after = self.before.get(label) or {}, self.after.get(label) or {}
        extra = result.extra = result.extra or {}
        since = extra.get("steady_since", self.began)
        inside = [s for s in result.samples if since < s.t <= (self.load_ended or s.t)]
        if "values" in before and "values" in after and self.load_ended is not None:
            load_s = min(self.duration_s, self.load_ended - float(before["t"]))  # the closing reading may be later (_settled)
            extra.update(series.window_summary(before, after, self.readers[label][2], load_s, inside),
                         steady_intervals=len({s.t for s in inside}), steady_since=since)
            if extra["packs"]:
                result.error = None  # a point too short for two scrapes is still counted by the readings around it
            return
        why = before.get("error") or after.get("error") or "no reading"
        extra.update(series.summarise(inside, float("-inf")), steady_since=since)
        extra.setdefault("warnings", []).append(
            f"the readings around the load failed ({why}): figures from the {extra['steady_intervals']} scrape interval(s) inside the load"
            if inside else f"the readings around the load failed ({why}) and no scrape interval lies inside it: no server figures for this point")


def _lines_of(outcome: runner.RunOutcome, name: str) -> runner.RunOutcome:
    """The shared scraper's outcome with only one exporter's lines (they carry its name)."""
    def mine(line: str) -> bool:
        try:
            return json.loads(line).get("exporter") == name
        except (ValueError, AttributeError):
            return False
    return dataclasses.replace(outcome, stdout="\n".join(line for line in outcome.stdout.splitlines() if mine(line)))


def with_process(monitors: list[dict], documents: dict) -> list[dict]:
    """The plan's monitors and, when the target names its server's process and the plan does not read it already, the
    process monitor: every point of a server Kneeboard can reach gets its CPU from /proc."""
    server = documents.get("process") or {}
    local = server.get("host") is None or is_local(server["host"])
    if any(m.get("kind") == PROCESS for m in monitors):  # a remote server's, or one a plan's observer reads, is read there
        return [m for m in monitors if m.get("kind") != PROCESS or (local and not m.get("observer"))]
    if not server.get("name") or not local:
        return monitors  # a remote server's /proc is its observer's to read (observers/process_cpu.py)
    return [*monitors, {"kind": PROCESS}]


def label_of(monitor: dict) -> str:
    """What a monitor's summary and warnings are filed under: its kind, and an exporter's name ("exporter.coredns")."""
    return f"{monitor['kind']}.{monitor['exporter']}" if monitor.get("exporter") else monitor["kind"]


def scraped_by(target: dict) -> dict:
    """The endpoints a target's monitors read, from its launch snapshot: the node monitor's metrics_url, the
    exporters by name and its PromQL source (handed to the monitors as documents, never taken from a plan)."""
    return {"metrics_url": target.get("metrics_url"),
            "exporters": {e["name"]: {"url": e["url"], "packs": list(e["packs"])} for e in target.get("exporters") or []},
            "prometheus": target.get("prometheus"),
            "process": {"name": target.get("process"), "host": target.get("host"), "port": target.get("port")}}  # issue 46 item 2
