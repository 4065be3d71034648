"""A point's CPU profile, taken beside the point by the observer its plan names (on the server's host), else by the
local worker (loopback and lab targets: their servers run on this host): perf recording over the steady window while
the load runs, folded after the point (the observer's at idle priority), filed on the point's result and stored once the point is.
Nothing here fails a point: a problem is a warning on it."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from kneeboard.campaigns.models import Point
from kneeboard.db import session_scope
from kneeboard.observers import service as observing
from kneeboard.profiling import perf, service
from kneeboard.cpu_profile_setting import CpuProfileSettings
from kneeboard.profiling.taken import Taken, take
from kneeboard.retry import retrying
from kneeboard.tools.base import PointResult, PointSpec
from kneeboard.tools.contract import ToolAdapter
from kneeboard.tools.process.adapter import is_local

log = logging.getLogger(__name__)
PREFIX = "CPU profile"


class PointProfile:
    """The CPU profile of one point: a context around the point's load, then file() and store()."""

    def __init__(self, settings: CpuProfileSettings | None, workdir: Path, steady: tuple[float, float] | None,
                 skipped: str | None = None) -> None:
        self.settings, self.skipped = settings, skipped
        self.recording = perf.Recording(settings, workdir, *steady) if settings and steady and not skipped else None
        self.row: dict | None = None
        self.stopped: str | None = None

    def __enter__(self) -> PointProfile:
        if self.recording is not None:
            self.recording.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stopped = self.recording.stop() if self.recording is not None else None

    def file(self, result: PointResult) -> list[str]:
        """Fold the recording and put its summary on the result (extra "cpu_profile"); the
        warnings for the point. Call after the context."""
        if self.settings is None:
            return []
        if self.skipped or self.recording is None:
            return [f"{PREFIX} not taken: {self.skipped or 'the point has no steady window to profile'}"]
        # at the worker's own priority: the fold runs between points, when nothing of the campaign loads or measures;
        # at nice 19 beside a busy host's work it took 12 s a point beside `stress-ng --cpu 2`, 40 s and more with other
        # work besides; at the worker's, 0.7-1.7 s beside the hog and the other work (`make test`, 2026-11-29)
        return self._filed(result, take(self.recording, self.stopped, idle=False))

    def _filed(self, result: PointResult, taken: Taken, host: str = "this host") -> list[str]:
        """Keep a taken profile's row and put its summary on the result; the warnings for the point."""
        if taken.row is None:
            return [f"{PREFIX} not taken: {taken.error}"]
        self.row = taken.row
        result.extra["cpu_profile"] = {k: v for k, v in self.row.items() if k != "folded"} | {"fold_s": round(taken.fold_s, 3)}
        if not self.row["samples"]:
            seen = ", ".join(f"{comm} {n}" for comm, n in taken.seen)
            return [f"{PREFIX}: no sample of a process named {self.row['process']!r} in the steady window (samples "
                    f"by command name: {seen or 'none'}); is the server running on {host} under that name?"]
        return [f"{PREFIX}: {self.row['dropped_stacks']:,} of its lightest stacks ({self.row['dropped_samples']:,} "
                f"samples) left out to stay within 1 MiB"] if self.row["dropped_stacks"] else []  # fmt: skip

    def store(self, point_id: int) -> None:
        """Store the folded profile on the stored point (a failure is logged: the point stays measured)."""
        if self.row is None or not self.row["samples"]:
            return
        try:
            retrying(lambda: _store(point_id, self.row), f"storing point {point_id}'s CPU profile")
        except Exception:  # noqa: BLE001 - a profile is evidence beside the point, never its result
            log.exception("point %s: the CPU profile was not stored", point_id)


class ObservedProfile(PointProfile):
    """The CPU profile of one point taken by the observer the plan names, on the server's host: assigned as the point
    begins (acknowledged before its load starts, else a warning), folded there after the window and reported through
    the API; the worker waits for it (bounded). Nothing here fails the point either."""

    def __init__(self, settings: CpuProfileSettings, point_id: int, steady: tuple[float, float] | None, skipped: str | None = None) -> None:
        super().__init__(settings, Path(), None, skipped)
        self.point_id, self.steady = point_id, steady
        self.assignment: int | None = None
        self.warnings: list[str] = []
        self.load_ended = 0.0

    def __enter__(self) -> ObservedProfile:
        if self.steady is not None and not self.skipped:
            self.assignment, self.warnings = observing.assign(self.point_id, self.settings.observer, *self.steady, what=PREFIX,
                                                              process=self.settings.process, frequency_hz=self.settings.frequency_hz)
        return self

    def __exit__(self, *_exc) -> None:
        self.load_ended = time.time()

    def file(self, result: PointResult) -> list[str]:
        """Wait for the observer's report and put its summary on the result; the warnings for the point."""
        if self.assignment is None:
            return self.warnings or super().file(result)
        report, why = observing.await_report(self.assignment, self.load_ended)
        where = f"observer {self.settings.observer}"
        if report is None:
            return self.warnings + [f"{PREFIX} not taken: {why}"]
        taken = Taken(report.profile.model_dump() if report.profile else None, report.error and f"{report.error} (on {where})",
                      [tuple(s) for s in report.seen], report.fold_s)  # fmt: skip
        warnings = self.warnings + self._filed(result, taken, host=f"{where}'s host")
        if "cpu_profile" in result.extra:
            result.extra["cpu_profile"]["observer"] = self.settings.observer
        return warnings


def _store(point_id: int, row: dict) -> None:
    """Store a point's profile in a transaction of its own (the worker's, after the point's)."""
    with session_scope() as session:
        service.store(point_id, row, session=session)


def _settings(point_id: int, tool: ToolAdapter) -> tuple[CpuProfileSettings | None, float]:
    """The plan's CPU profile setting and the point's warm-up (its phase's, else the tool's)."""
    with session_scope() as session:
        point = session.get(Point, point_id)
        plan = point.campaign.plan
        warmup = plan["phases"][point.phase_index].get("warmup_s")
        chosen = plan.get("cpu_profile")
        return (CpuProfileSettings.model_validate(chosen) if chosen else None), float(tool.warmup_s if warmup is None else warmup)


def beside(point_id: int, tool: ToolAdapter, spec: PointSpec, workdir: Path, refused: str | None) -> PointProfile:
    """The point's CPU profile when its plan asks for one (else a PointProfile that does nothing)."""
    settings, warmup_s = retrying(lambda: _settings(point_id, tool), "reading the point's CPU profile setting")
    if settings is None or refused:
        return PointProfile(None, workdir, None)
    if settings.observer:
        steady = perf.window(spec.duration_s, warmup_s)
        return ObservedProfile(settings, point_id, steady, None if steady else _too_short(spec, warmup_s))
    if not is_local(spec.host):
        return PointProfile(settings, workdir, None, skipped=f"the target {spec.host} is not on this host (the local worker "
                                                             "profiles loopback and lab targets only)")
    steady = perf.window(spec.duration_s, warmup_s)
    return PointProfile(settings, workdir, steady, None if steady else _too_short(spec, warmup_s))


def _too_short(spec: PointSpec, warmup_s: float) -> str:
    return f"the point's {spec.duration_s:g} s leave less than {perf.MIN_WINDOW_S:g} s after its {warmup_s:g} s warm-up"
