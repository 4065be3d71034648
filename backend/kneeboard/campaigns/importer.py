"""Importing finished campaigns from results people already have: the seed script's CSV,
raw dnsperf output files, and Kneeboard's own JSON export. All or nothing."""

from __future__ import annotations

import json
import math
import re
import shlex
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from sqlalchemy.orm import Session

from kneeboard.analysis import ImportFormatError, parse_seed_csv
from kneeboard.campaigns.analysis import analyse_campaign
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.status import move_campaign, move_point
from kneeboard.config import get_settings
from kneeboard.errors import Invalid
from kneeboard.inputs import check_tree, first_bad_char
from kneeboard.targets.models import Target
from kneeboard.tools import dnsperf
from kneeboard.tools.base import derive
from kneeboard.states import CampaignStatus, PointStatus

_COMMAND = re.compile(r"^\[Status\] Command line: (.+)$", re.M)


class ImportFile(BaseModel):
    """One uploaded file: its name (a label: the last path part, without control characters) and text."""

    name: str
    text: str

    @field_validator("name")
    @classmethod
    def _label(cls, value: str) -> str:
        label = "".join(c for c in value.replace("\\", "/").rsplit("/", 1)[-1] if first_bad_char(c) is None)
        return label[:200] or "upload"


class ImportRefused(ValueError):
    """A file that cannot be imported; `file`, `line`, `column` say where."""

    def __init__(self, file: str, line: int, column: int, message: str) -> None:
        self.file, self.line, self.column = file, line, column
        super().__init__(f"{file}: line {line}, column {column}: {message}")


def _point(seq: int, phase: str, concurrency: int, rate: float | None, duration: float, metrics: dict, **fields: Any) -> Point:
    point = Point(seq=seq, variant=fields.pop("variant", None), phase_index=fields.pop("phase_index", 0), phase=phase,
                  concurrency=concurrency, offered_rate=rate, duration_s=duration, repeat=fields.pop("repeat", 0), status=PointStatus.PENDING)  # fmt: skip
    move_point(point, PointStatus.RUNNING)
    for key, value in fields.items():
        setattr(point, key, value)
    point.metrics = derive(metrics, rate) if metrics else {}
    move_point(point, PointStatus.FAILED if point.error or not metrics else PointStatus.COMPLETED)
    return point


def from_seed_csv(upload: ImportFile) -> tuple[list[Point], dict]:
    """Points from the seed script's CSV (Test_Type, Concurrency, Target_QPS, Actual_QPS, Avg_Latency_ms, StdDev_ms)."""
    try:
        rows = parse_seed_csv(upload.text)
    except ImportFormatError as exc:
        raise ImportRefused(upload.name, exc.line, exc.column, exc.message) from None
    phases = list(dict.fromkeys(r["phase"] for r in rows))
    points = []
    for seq, row in enumerate(rows):
        metrics = {k: row[k] for k in ("achieved_rate", "latency_avg_ms", "latency_stddev_ms")} if row["status"] == "completed" else {}
        error = None if metrics else "the CSV has no result for this run"
        points.append(_point(seq, row["phase"], row["concurrency"], row["offered_rate"], 0.0, metrics,
                             phase_index=phases.index(row["phase"]), repeat=row["repeat"], error=error))  # fmt: skip
    return points, {"format": "seed CSV"}


def _command_params(upload: ImportFile) -> tuple[list[str], int, float | None, float]:
    match = _COMMAND.search(upload.text)
    if match is None:
        raise ImportRefused(upload.name, 1, 1, "not dnsperf output: no '[Status] Command line:' line")
    line, column = upload.text[: match.start()].count("\n") + 1, match.start(1) - match.start() + 1
    try:
        argv = shlex.split(match.group(1))
    except ValueError as exc:
        raise ImportRefused(upload.name, line, column, f"unreadable dnsperf command line: {exc}") from None
    options = {argv[i]: argv[i + 1] for i in range(1, len(argv) - 1) if argv[i].startswith("-")}
    try:
        read = _COMMAND_OPTIONS.validate_python({"concurrency": options.get("-c", "1"), "rate": options.get("-Q"), "duration": options.get("-l", "0")})
    except ValidationError as exc:
        raise ImportRefused(upload.name, line, column, f"unreadable dnsperf option: {_first_error(exc)}") from None
    return argv, read.concurrency, read.rate, read.duration


def from_dnsperf(uploads: list[ImportFile]) -> tuple[list[Point], dict]:
    """One point per raw dnsperf output file; parameters read from its command line."""
    parsed = []
    for upload in uploads:
        argv, concurrency, rate, duration = _command_params(upload)
        result = dnsperf.parse(upload.text, "", 0)
        if result.error and not result.metrics:
            raise ImportRefused(upload.name, upload.text.count("\n") + 1, 1, result.error)
        parsed.append((upload, argv, concurrency, rate, duration, result))
    parsed.sort(key=lambda p: (p[2], p[3] or 0))
    phase = "stability" if len(parsed) == 1 else "scalability" if len({p[2] for p in parsed}) > 1 else "saturation"
    points = [
        _point(seq, phase, c, rate, duration, result.metrics, argv=argv, stdout=upload.text, error=result.error,
               extra={**result.extra, "source_file": upload.name}, warnings=result.extra.get("warnings", []),
               tool_version=dnsperf.parse_version(upload.text), parser_version=result.parser_version, exit_code=0)
        for seq, (upload, argv, c, rate, duration, result) in enumerate(parsed)
    ]  # fmt: skip
    return points, {"format": "dnsperf output", "files": [u.name for u in uploads]}


def from_export(upload: ImportFile) -> tuple[list[Point], dict, dict]:
    """Points, plan and campaign fields from Kneeboard's own JSON export."""
    try:
        document = json.loads(upload.text, parse_constant=_no_constant)
        check_tree(document)
    except json.JSONDecodeError as exc:
        raise ImportRefused(upload.name, exc.lineno, exc.colno, f"not JSON: {exc.msg}") from None
    except (Invalid, RecursionError) as exc:
        raise ImportRefused(upload.name, 1, 1, f"refused: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("points"), list):
        raise ImportRefused(upload.name, 1, 1, "not a Kneeboard export: no campaign and points")
    _check_head(upload.name, document.get("campaign"))
    if len(document["points"]) > get_settings().max_import_rows:
        raise ImportRefused(upload.name, 1, 1, f"more than {get_settings().max_import_rows} points (MAX_IMPORT_ROWS)")
    head, points, seen = document["campaign"], [], set()
    for index, raw in enumerate(document["points"]):
        try:
            row = ExportPoint.model_validate(raw)
        except ValidationError as exc:
            raise ImportRefused(upload.name, 1, 1, f"points[{index}].{_first_error(exc)}") from None
        if row.seq in seen:
            raise ImportRefused(upload.name, 1, 1, f"points[{index}].seq: point {row.seq} is repeated")
        seen.add(row.seq)
        fields = row.model_dump(exclude={"seq", "phase", "concurrency", "offered_rate", "duration_s", "metrics"})
        metrics = {k: v for k, v in row.metrics.items() if k not in {"offered_rate", "efficiency", "inflight"}}
        points.append(_point(row.seq, row.phase, row.concurrency, row.offered_rate, row.duration_s, metrics,
                             phase_index=_phase_index(head["plan"], row.phase), **fields))  # fmt: skip
    return points, head["plan"], head


_BIG = 10**12  # beyond any real count or rate, within what the database stores


class ExportPoint(BaseModel):
    """One point of a Kneeboard JSON export, as the importer takes it (each field bounded)."""

    model_config = ConfigDict(extra="ignore")
    seq: int = Field(ge=0, le=_BIG)
    phase: str = Field(max_length=40)
    concurrency: int = Field(ge=0, le=2**31 - 1)
    offered_rate: float | None = Field(default=None, ge=0, le=_BIG, allow_inf_nan=False)
    duration_s: float = Field(ge=0, le=10**9, allow_inf_nan=False)
    metrics: dict[str, float | None] = Field(default_factory=dict)
    variant: str | None = Field(default=None, max_length=200)
    repeat: int = Field(default=0, ge=0, le=2**31 - 1)
    error: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    argv: list[str] = Field(default_factory=list)
    stdout: str = ""
    stderr: str = ""
    tool_version: str | None = Field(default=None, max_length=200)
    exit_code: int | None = Field(default=None, ge=-(2**31), le=2**31 - 1)
    parser_version: str | None = Field(default=None, max_length=40)
    agent: str | None = Field(default=None, max_length=200)

    @field_validator("metrics")
    @classmethod
    def _finite(cls, value: dict[str, float | None]) -> dict[str, float | None]:
        for name, number in value.items():
            if number is not None and not math.isfinite(number):
                raise ValueError(f"metric {name[:40]} is not a finite number")
        return value


class _CommandOptions(BaseModel):
    concurrency: int = Field(ge=1, le=2**31 - 1)
    rate: float | None = Field(default=None, gt=0, le=_BIG, allow_inf_nan=False)
    duration: float = Field(ge=0, le=10**9, allow_inf_nan=False)


_COMMAND_OPTIONS = TypeAdapter(_CommandOptions)


def _first_error(exc: ValidationError) -> str:
    """The first validation error as "field.path: message"."""
    error = exc.errors()[0]
    return f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}"


_HEAD_TYPES = {"name": str, "tool": str, "agent": str, "tags": list, "environment": dict, "target": dict, "plan": dict}


def _check_head(file: str, head: Any) -> None:
    """The export's `campaign` object has the shape the importer reads (else ImportRefused naming the field)."""
    if not isinstance(head, dict) or not isinstance(head.get("plan"), dict):
        raise ImportRefused(file, 1, 1, "not a Kneeboard export: campaign.plan missing")
    for key, kind in _HEAD_TYPES.items():
        if head.get(key) is not None and not isinstance(head[key], kind):
            raise ImportRefused(file, 1, 1, f"not a Kneeboard export: campaign.{key} must be a {kind.__name__}")
    if not isinstance(head["plan"].get("phases", []), list) or not all(isinstance(t, str) for t in head.get("tags") or []):
        raise ImportRefused(file, 1, 1, "not a Kneeboard export: campaign.plan.phases or campaign.tags malformed")
    if "name" not in head["plan"] and not head.get("name"):
        raise ImportRefused(file, 1, 1, "not a Kneeboard export: the campaign has no name")


def _no_constant(name: str) -> float:
    raise Invalid((), f"{name} is not a number this API accepts")


def _phase_index(plan: dict, phase: str) -> int:
    kinds = [p.get("kind") for p in plan.get("phases", [])]
    return kinds.index(phase) if phase in kinds else 0


def check_limits(uploads: list[ImportFile]) -> None:
    """Refuse before parsing: more files or rows than MAX_IMPORT_ROWS, or control characters (named by line)."""
    cap = get_settings().max_import_rows
    if not uploads or len(uploads) > cap:
        raise ImportRefused(uploads[0].name if uploads else "upload", 1, 1, f"send 1 to {cap} files")
    for upload in uploads:
        if upload.text.count("\n") > cap + 1 and not upload.text.lstrip().startswith("[Status]"):
            raise ImportRefused(upload.name, cap + 2, 1, f"more than {cap} rows (MAX_IMPORT_ROWS); split the file")
        if (index := first_bad_char(upload.text)) is not None:
            line = upload.text.count("\n", 0, index) + 1
            column = index - upload.text.rfind("\n", 0, index)
            raise ImportRefused(upload.name, line, column, f"a control character U+{ord(upload.text[index]):04X}")


def import_campaign(uploads: list[ImportFile], *, name: str | None, target_id: int | None, session: Session) -> Campaign:
    """A finished, analysed campaign from the uploaded files; raises ImportRefused and stores nothing on bad input.
    CPU-bound: call it in a worker thread."""
    check_limits(uploads)
    first = uploads[0]
    head: dict = {}
    if first.text.lstrip().startswith("{"):
        points, plan, head = from_export(first)
        source = f"import: {first.name} (Kneeboard JSON)"
    elif first.text.lstrip("\ufeff").startswith("Test_Type"):
        points, _info = from_seed_csv(first)
        plan, source = _plan_from(points, first.name), f"import: {first.name} (seed CSV)"
    else:
        points, _info = from_dnsperf(uploads)
        plan, source = _plan_from(points, first.name), f"import: {len(uploads)} dnsperf output file(s)"
    target = session.get(Target, target_id) if target_id else None
    snapshot = ({k: getattr(target, k) for k in ("id", "name", "kind", "host", "port", "tags")} if target
                else head.get("target") or {"name": "imported", "kind": "dns", "host": "unknown", "port": 53, "tags": []})  # fmt: skip
    campaign = Campaign(
        name=name or head.get("name") or plan["name"], tool=head.get("tool", "dnsperf"), plan=plan, target=snapshot,
        target_id=target.id if target else None, status=CampaignStatus.QUEUED, tags=sorted({"imported", *head.get("tags", [])}),
        agent=head.get("agent") or get_settings().agent_name, source=source, environment=head.get("environment") or {},
    )  # fmt: skip
    for step in (CampaignStatus.STARTING, CampaignStatus.RUNNING, CampaignStatus.COMPLETED):
        move_campaign(campaign, step)
    for key in ("created_at", "started_at", "ended_at"):
        if head.get(key):
            try:
                setattr(campaign, key, datetime.fromisoformat(str(head[key])))
            except ValueError:
                raise ImportRefused(first.name, 1, 1, f"campaign.{key} is not an ISO time: {str(head[key])[:40]!r}") from None
    campaign.points = points
    campaign.partial = any(p.status != PointStatus.COMPLETED for p in points)
    store(campaign)
    session.add(campaign)
    session.flush()
    campaign.analysis = analyse_campaign(campaign)
    return campaign


def _plan_from(points: list[Point], source: str) -> dict:
    """A plan-shaped record of what the imported points were (not runnable: no target)."""
    phases = []
    for kind in dict.fromkeys(p.phase for p in points):
        mine = [p for p in points if p.phase == kind]
        phases.append({"kind": kind, "concurrency": sorted({p.concurrency for p in mine}),
                       "rate": sorted({p.offered_rate for p in mine if p.offered_rate is not None}),
                       "duration_s": max(p.duration_s for p in mine)})  # fmt: skip
    return {"name": f"imported from {source}", "tool": "dnsperf", "target_id": None, "phases": phases, "pause_s": 0, "repeat": 1}
