"""The tool contract: what every load tool and monitor adapter declares and does.

An adapter knows its parameters (a pydantic model holding every bound), the metrics it
produces (unit, direction, headline), how to build an argv (never a shell string) and how
to read the tool's output. It knows nothing of the web or the database.
"""

from __future__ import annotations

import re
import signal
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ValidationError

from kneeboard.analysis.generator import Sending
from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, Sample, ToolInputError
from kneeboard.tools.runner import RunOutcome

Loc = tuple[str | int, ...]
Problem = tuple[Loc, str]  # (where, what is wrong)


class Role(StrEnum):
    """What a tool is for: generating load, or watching beside the load."""

    LOAD = "load"
    MONITOR = "monitor"


@dataclass(frozen=True)
class Metric:
    """One figure a tool produces: its unit, which way is better, and whether it is the headline."""

    name: str
    title: str
    unit: str
    better: Literal["higher", "lower"] | None = None
    headline: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The metric as the API shows it."""
        return asdict(self)


class PlannedPoint(Protocol):
    """What a plan-level check sees of each expanded point."""

    concurrency: int
    offered_rate: float | None
    duration_s: float


class ToolAdapter(ABC):
    """One tool behind Kneeboard. Subclass, fill in the class attributes, implement `argv` and `parse_final`."""

    name: ClassVar[str]
    title: ClassVar[str]
    role: ClassVar[Role] = Role.LOAD
    target_kinds: ClassVar[tuple[str, ...]] = ()
    Params: ClassVar[type[BaseModel]]
    metrics: ClassVar[tuple[Metric, ...]] = ()
    concurrency_label: ClassVar[str] = "concurrency"  # what a point's concurrency means for this tool
    max_concurrency: ClassVar[int] = 100_000
    takes_rate: ClassVar[bool] = True  # False: closed loop, a point offers no rate
    rate_per_concurrency: ClassVar[bool] = False  # a phase's rate is per unit of concurrency (devsim: per device)
    whole_seconds: ClassVar[bool] = False  # the tool's duration flag takes whole seconds
    ramp_allowed: ClassVar[bool] = False  # a stress ramp (doubling until errors) suits closed-loop tools
    stored_profile_param: ClassVar[str | None] = None  # a parameter naming a stored document (devsim's profile)
    version_argv: ClassVar[list[str]] = []
    version_pattern: ClassVar[re.Pattern[str] | None] = None
    stop_signal: ClassVar[signal.Signals] = signal.SIGTERM
    line_buffered: ClassVar[bool] = False  # run under `stdbuf -oL`: its stdio buffers whole blocks on a pipe
    warmup_s: ClassVar[float] = 1.0  # the start of a point left out of its steady window (connections, caches)
    live_samples: ClassVar[bool] = False  # prints per-interval lines that parse_interval reads (else: progress only)
    output_limit: ClassVar[int | None] = None  # None: the configured RAW_OUTPUT_LIMIT
    work_unit: ClassVar[tuple[str, float]] = ("1,000 operations", 1000.0)  # what the server's cost is given per (of the rate's unit)
    parser_version: ClassVar[str] = "1"

    # --- what the plan may ask for ------------------------------------------------

    def read_params(self, raw: dict[str, Any] | BaseModel | None) -> BaseModel:
        """The tool's parameters, validated by its Params model; ToolInputError naming the field."""
        if isinstance(raw, self.Params):
            return raw
        try:
            return self.Params.model_validate(raw or {})
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in ("params", *first["loc"]))
            raise ToolInputError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None

    def check_points(self, params: BaseModel, points: list[PlannedPoint], host: str | None) -> list[Problem]:
        """Rules joining the parameters with the points (and the target host); [] when all is well.

        Each problem names its field: ("params", "threads") or ("phases", i, "concurrency")
        (`i` is the point's phase_index when it has one).
        """
        problems: list[Problem] = []
        for point in points:
            at = phase_loc(point)
            if point.concurrency > self.max_concurrency:
                problems.append(((*at, "concurrency"), f"{self.name} takes at most {self.max_concurrency} {self.concurrency_label}, got {point.concurrency}"))
            if not self.takes_rate and point.offered_rate is not None:
                problems.append(((*at, "rate"), f"{self.name} is closed-loop and takes no offered rate; leave rate out"))
            if self.whole_seconds and point.duration_s != int(point.duration_s):
                problems.append(((*at, "duration_s"), f"{self.name} takes whole seconds, got {point.duration_s:g}"))
        return _first_each(problems)

    # --- running ------------------------------------------------------------------

    def build(self, spec: PointSpec, workdir: Path) -> list[str]:
        """The argv for one point, after the same checks a plan passes; ToolInputError when refused."""
        params = self.read_params(spec.params)
        _check_spec(spec, self.role)
        problems = self.check_points(params, [spec], spec.host)
        if problems:
            loc, message = problems[0]
            raise ToolInputError(f"{'.'.join(str(p) for p in loc if not isinstance(p, int))}: {message}")
        return self.argv(spec, params, Path(workdir))

    @abstractmethod
    def argv(self, spec: PointSpec, params: Any, workdir: Path) -> list[str]:
        """argv for checked parameters (a list, never a shell string); may write files into workdir."""

    def pipe_through(self, spec: PointSpec) -> list[str] | None:
        """argv of a filter fed the tool's stdout through a pipe (its stdout is what is read, so
        `line_buffered` is not applied then); None: none."""
        return None

    def env(self) -> dict[str, str] | None:
        """Extra environment variables for the tool's process (None: inherit)."""
        return None

    def unverified_tls_port(self, spec: PointSpec) -> int | None:
        """The port of a TLS connection the tool opens without verifying the server's certificate (dnsperf 2.10's dot
        and doh), which Kneeboard verifies itself before the point (runs/tls_check.py); None: none."""
        return None

    def setup_s(self, spec: PointSpec) -> float:
        """Seconds the tool may spend before its measured `duration_s` begins (devsim: the connection ramp)."""
        return 0.0

    def time_limit_s(self, spec: PointSpec, grace_s: float) -> float:
        """How long the point's process may run before it is stopped: setup, duration, grace and the tool's own timeout."""
        return self.setup_s(spec) + spec.duration_s + grace_s + float(spec.params.get("timeout_s") or 0)

    # --- reading ------------------------------------------------------------------

    def parse_interval(self, line: str) -> Sample | None:
        """One line of output as a live sample, or None (default: no live samples)."""
        return None

    def interval_reader(self, started_at: float) -> Callable[[str], Sample | None]:
        """What reads one run's lines live (a tool whose lines need the run's context returns its own)."""
        return self.parse_interval

    @abstractmethod
    def parse_final(self, stdout: str, stderr: str, exit_code: int | None) -> PointResult:
        """The whole run's output as metrics, extras and an error when nothing was measured. Pure."""

    def read(self, outcome: RunOutcome) -> PointResult:
        """A finished run as a result: a tool that could not start, a parser that raised, a
        cancel or a timeout each become a clear error; the raw output stays with the outcome."""
        if outcome.error and outcome.exit_code is None:
            return PointResult(error=outcome.error, parser_version=self.parser_version)
        try:
            result = self.parse_final(outcome.stdout, outcome.stderr, outcome.exit_code)
        except Exception as exc:  # noqa: BLE001 - a parser bug fails the point, never the worker
            result = PointResult(error=f"the {self.name} parser failed ({type(exc).__name__}: {exc}); raw output kept",
                                 parser_version=self.parser_version)
        if outcome.cancelled:
            result.error = "cancelled while running"
        elif outcome.timed_out:
            result.error = outcome.error
        return result

    def sending(self, point: PlannedPoint, params: Any, result: PointResult) -> Sending | None:
        """What the tool says of its own sending in a point (asked, sent, its in-flight cap) for judging whether the
        offered load was sent (analysis/generator.py); None when it cannot say (no offered rate, no sent count)."""
        return None

    def parse_version(self, text: str) -> str | None:
        """The version the tool printed in reply to `version_argv`."""
        if self.version_pattern is None:
            return None
        match = self.version_pattern.search(text or "")
        return match.group(1) if match else None

    # --- describing ---------------------------------------------------------------

    @property
    def headline(self) -> Metric | None:
        """The metric a report and a comparison lead with."""
        return next((m for m in self.all_metrics() if m.headline), None)

    @property
    def rate_unit(self) -> str:
        """The unit of a point's offered and achieved rate (qps, req/s, bit/s…)."""
        rate = next((m for m in self.metrics if m.name == "achieved_rate"), None)
        return rate.unit if rate else "ops/s"

    def metric(self, name: str) -> Metric | None:
        """A metric by name (derived metrics included)."""
        return next((m for m in self.all_metrics() if m.name == name), None)

    def all_metrics(self) -> tuple[Metric, ...]:
        """The tool's metrics plus those Kneeboard derives for every load point."""
        if self.role is not Role.LOAD:
            return self.metrics
        derived = (
            Metric("offered_rate", "Offered", self.rate_unit),
            Metric("efficiency", "Efficiency (achieved / offered)", "ratio", "higher"),
            Metric("inflight", "In flight (Little's law)", "count"),
        )
        return self.metrics + derived

    def describe(self) -> dict[str, Any]:
        """Everything the UI needs to know of this tool (GET /api/v1/tools)."""
        return {
            "name": self.name, "title": self.title, "role": self.role.value, "target_kinds": list(self.target_kinds),
            "params_schema": self.Params.model_json_schema(), "metrics": [m.as_dict() for m in self.all_metrics()],
            "headline": self.headline.name if self.headline else None, "concurrency_label": self.concurrency_label,
            "max_concurrency": self.max_concurrency, "takes_rate": self.takes_rate,
            "rate_per_concurrency": self.rate_per_concurrency, "whole_seconds": self.whole_seconds,
            "ramp_allowed": self.ramp_allowed, "monitors": self.role is Role.LOAD, "live_samples": self.live_samples, "warmup_s": self.warmup_s,
            "rate_unit": self.rate_unit, "work_unit": self.work_unit[0],
        }  # fmt: skip


def _check_spec(spec: PointSpec, role: Role) -> None:
    """What a plan's phases and target already bound, checked again for a point built directly."""
    if not isinstance(spec.concurrency, int) or isinstance(spec.concurrency, bool) or spec.concurrency < 1:
        raise ToolInputError(f"concurrency: must be a whole number ≥ 1, got {spec.concurrency!r}")
    if not units.is_number(spec.duration_s) or spec.duration_s <= 0:
        raise ToolInputError(f"duration_s: must be a number > 0, got {spec.duration_s!r}")
    if spec.rate is not None and (not units.is_number(spec.rate) or spec.rate <= 0):
        raise ToolInputError(f"rate: must be a number > 0, got {spec.rate!r}")
    if role is Role.LOAD:
        units.require_host("host", spec.host)
        if spec.host_name is not None:
            units.require_host("host_name", spec.host_name)
        units.require_int("port", spec.port, 1, 65_535)


def phase_loc(point: Any) -> Loc:
    """("phases", i) for a planned point of phase i; () for a single point being built."""
    index = getattr(point, "phase_index", None)
    return ("phases", index) if index is not None else ()


def _first_each(problems: list[Problem]) -> list[Problem]:
    """One problem per field (a sweep of 200 points over the cap is one mistake, not 200)."""
    seen: dict[Loc, str] = {}
    for loc, message in problems:
        seen.setdefault(loc, message)
    return list(seen.items())
