"""Monitors beside a point (mpstat, ping, node, exporter): started with it (no lead sleep), stopped with SIGINT after it."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

from kneeboard.tools import runner
from kneeboard.tools.base import PointSpec, Sample, ToolInputError
from kneeboard.tools.registry import adapter

TAIL_S = 4.0  # a monitor's own duration runs this far past the point; it is stopped as soon as the point ends
FIRST_MARGIN_S = 0.4  # a monitor is stopped no sooner than its first interval and this much more: a short point still gets a sample


class MonitorSet:
    """The monitors of one point, each a process run in its own thread."""

    def __init__(self, monitors: list[dict], duration_s: float, workdir: Path, scraped: dict | None = None) -> None:
        self.stop_event = threading.Event()
        self.runs: list[tuple[str, str, object, list]] = []
        self.warnings: list[str] = []
        self.summaries: dict[str, dict] = {}  # each monitor's own summary (its result's extra), by label (label_of)
        self.samples: list[Sample] = []
        self.started = time.monotonic()
        self.first_interval_s = min(5.0, max((float(m.get("interval_s", 1)) for m in monitors), default=0.0))
        documents = {k: v for k, v in (scraped or {}).items() if v}  # the stored target's endpoints, never the plan's
        for monitor in monitors:
            self._start(monitor, duration_s, workdir, documents)

    def _start(self, monitor: dict, duration_s: float, workdir: Path, documents: dict) -> None:
        kind, label = monitor["kind"], label_of(monitor)
        params = {k: v for k, v in monitor.items() if k != "kind"}
        spec = PointSpec(host=params.get("host", "127.0.0.1"), port=0, concurrency=1, rate=None, duration_s=duration_s + TAIL_S,
                         params=params, documents=documents)
        try:
            argv = adapter(kind).build(spec, workdir)
        except ToolInputError as exc:
            self.warnings.append(f"monitor {label} not started: {exc}")
            return
        env = adapter(kind).env()
        box: list = []
        thread = threading.Thread(
            target=lambda: box.append(runner.run(argv, timeout_s=spec.duration_s + 10, should_cancel=self.stop_event.is_set,
                                                 env=env, stop_signal=signal.SIGINT, output_limit=8 * 1_048_576)),
            daemon=True,
        )  # fmt: skip
        thread.start()
        self.runs.append((kind, label, thread, box))

    def __enter__(self) -> MonitorSet:
        return self

    def __exit__(self, *_exc) -> None:
        """Stop the monitors however the point ended; their samples are kept in `samples`."""
        self.samples = self.stop()

    def stop(self) -> list[Sample]:
        """Stop every monitor (SIGINT keeps mpstat's JSON whole) and return their samples."""
        if self.stop_event.is_set():
            return self.samples
        if self.runs:  # a point as short as an interval ends before the monitor's first line
            time.sleep(max(0.0, self.started + self.first_interval_s + FIRST_MARGIN_S - time.monotonic()))
        self.stop_event.set()
        samples: list[Sample] = []
        for kind, label, thread, box in self.runs:
            thread.join(timeout=15)
            if not box:
                self.warnings.append(f"monitor {label} did not stop")
                continue
            outcome = box[0]
            outcome.cancelled = False  # a monitor is always stopped by us: that is its normal end
            result = adapter(kind).read(outcome)  # a monitor never fails the point: its errors become warnings
            own = result.extra.pop("warnings", None) if result.extra else None
            self.warnings += [f"monitor {label}: {w}" for w in [*(own or []), *([result.error] if result.error else [])]]
            if result.extra:
                self.summaries[label] = result.extra
            samples += [Sample(t=s.t, values=s.values, series=s.series if s.series != "point" else kind) for s in result.samples]
        return samples


def label_of(monitor: dict) -> str:
    """What a monitor's summary and warnings are filed under: its kind, and an exporter's name ("exporter.coredns")."""
    return f"{monitor['kind']}.{monitor['exporter']}" if monitor.get("exporter") else monitor["kind"]


def scraped_by(target: dict) -> dict:
    """The endpoints a target's monitors read, from its launch snapshot: the node monitor's metrics_url and the
    exporters by name (handed to the monitors as documents, never taken from a plan)."""
    return {"metrics_url": target.get("metrics_url"),
            "exporters": {e["name"]: {"url": e["url"], "packs": list(e["packs"])} for e in target.get("exporters") or []}}
