"""The exporter monitor's adapter: build the scraper's argv, read its lines (any Prometheus exporter of the target).

A plan names the exporter (`{"kind": "exporter", "exporter": "coredns"}`); its URL and packs are the target's
(never the plan's): the worker hands them over in the point's documents, the URL pinned to the address the
policy check saw, with the name kept for the Host header. Series: `server.<pack>.<query>` (exporters/packs/).
"""

from __future__ import annotations

import pathlib
import sys

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.exporters.packs import EXPORTER_NAME, all_packs
from kneeboard.tools import units
from kneeboard.tools.base import PointResult, PointSpec, ToolInputError
from kneeboard.tools.contract import Metric, Role, ToolAdapter
from kneeboard.tools.exporter import series
from kneeboard.tools.exporter.select import MAX_SERIES
from kneeboard.validators import check_metrics_url

PARSER_VERSION = "1"
WARMUP_S = 1.0  # the summary leaves out the point's first second, as a load tool's steady window does
SCRAPER = [sys.executable, "-m", "kneeboard.tools.exporter.scrape"]  # then one exporter's arguments (or --each groups)


def parse(stdout: str, stderr: str, exit_code: int | None, packs: list | None = None) -> PointResult:
    """The scraper's JSON lines → samples per interval, a summary and warnings; an error when fewer than two scrapes worked."""
    result = PointResult(parser_version=PARSER_VERSION)
    scrapes, errors = series.read_lines(stdout)
    dropped = max((int(s.get("dropped") or 0) for s in scrapes), default=0)
    counts = {"scrapes": len(scrapes), "scrape_errors": len(errors), "first_error": errors[0] if errors else None,
              "series_kept": max((int(s.get("kept") or 0) for s in scrapes), default=0), "series_dropped": dropped}
    warnings = []
    if errors and len(scrapes) >= 2:
        warnings.append(f"{len(errors)} of {len(errors) + len(scrapes)} scrapes failed (first: {errors[0]})")
    if dropped:
        warnings.append(f"{dropped} series over the cap of {MAX_SERIES} per exporter dropped; narrow the packs' queries")
    if len(scrapes) < 2:
        why = errors[0] if errors else (units.failure_reason("exporter scrape", _last_line(stderr), exit_code)
                                        if (stderr or "").strip() or exit_code else "the point ended before a second scrape")
        result.error = f"{len(scrapes)} successful scrape(s), rates need two ({why})"
        result.extra = {**counts, "warnings": warnings}
        return result
    chosen = packs if packs is not None else _packs_of(scrapes)
    result.samples = series.all_samples(scrapes, chosen)
    result.extra = {**counts, **series.summarise(result.samples, float(scrapes[0]["t"]) + WARMUP_S), "warnings": warnings}
    if not result.samples:
        result.error = "no query of the packs matched the page (is this the exporter the packs read?)"
    return result


def _last_line(stderr: str) -> str:
    """A Python traceback's last line says what happened (its first says only "Traceback"); other text as it is."""
    lines = [line for line in (stderr or "").splitlines() if line.strip()]
    return lines[-1] if lines and lines[0].startswith("Traceback") else stderr


def _packs_of(scrapes: list[dict]) -> list:
    """The packs a run's lines speak of ("pack.query" keys), when the caller did not say."""
    names = {key.split(".", 1)[0] for s in scrapes for key in s["values"]}
    return [p for n, p in all_packs().items() if n in names]


class ExporterParams(BaseModel):
    """The exporter monitor's parameters: which of the target's exporters (its URL and packs are the target's)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="Prometheus exporter monitor parameters")
    exporter: str = Field(pattern=EXPORTER_NAME, title="Exporter", description="the name of one of the target's exporters")
    interval_s: int = Field(default=1, ge=1, le=60, title="Interval (s)")


class Exporter(ToolAdapter):
    """One of the target's Prometheus exporters, scraped beside every point and read by its query packs."""

    name, title, role = "exporter", "Server (Prometheus exporter)", Role.MONITOR
    Params = ExporterParams
    parser_version = PARSER_VERSION
    warmup_s = WARMUP_S
    metrics = tuple(Metric(f"{p.name}.{q.name}", f"{p.title}: {q.title}", q.unit, q.better)
                    for p in all_packs().values() for q in p.queries)

    def argv(self, spec: PointSpec, params: ExporterParams, workdir: pathlib.Path) -> list[str]:
        """`python -m kneeboard.tools.exporter.scrape URL HOST INTERVAL DURATION PACKS` for the named exporter."""
        found = (spec.documents.get("exporters") or {}).get(params.exporter)
        if not found:
            raise ToolInputError(f"exporter: the target has no exporter named {params.exporter!r}")
        if found.get("refused"):
            raise ToolInputError(found["refused"])
        try:
            url = check_metrics_url(found["url"])
        except ValueError as exc:
            raise ToolInputError(f"exporter {params.exporter}: {exc}") from None
        packs = [p for p in found.get("packs") or [] if p in all_packs()]
        if not packs:
            raise ToolInputError(f"exporter {params.exporter}: none of its packs is known")
        return [*SCRAPER, url, found.get("host") or url.split("/")[2],
                str(params.interval_s), f"{spec.duration_s:g}", ",".join(packs)]

    parse_final = staticmethod(parse)


ADAPTER = Exporter()
build = ADAPTER.build
