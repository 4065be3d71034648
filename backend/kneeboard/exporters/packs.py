"""Query packs: one data file per pack under packs/, read and checked here. Pure (reads only its own files).

A pack names the Prometheus metrics it reads and how: a counter becomes a rate per second, a gauge is kept,
a histogram is read as quantiles. Each query's series is `server.<pack>.<query>`; its values are keyed by the
`by` labels' values (joined with "."), or "value", and for a histogram suffixed with the quantile ("p50", "p99").
Adding a query is editing a file: no code changes (docs/exporters.md). A query's `role` tells the server evidence
(kneeboard.evidence) what it counts: requests, the process's CPU, a drop or an error.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kneeboard import safe_yaml

PACKS_DIR = Path(__file__).with_name("packs")
MAX_PACK_BYTES = 64 * 1024
NAME = r"^[a-z][a-z0-9_]{0,19}$"
QUERY_NAME = r"^[a-z][a-z0-9_]{0,29}$"  # server.<20>.<30> stays within the samples table's 60-character series
METRIC_NAME = r"^[a-zA-Z_:][a-zA-Z0-9_:]{0,199}$"
EXPORTER_NAME = r"^[a-z][a-z0-9_-]{0,19}$"  # a target's exporter, as a plan's exporter monitor names it (e.g. coredns)
LabelName = Annotated[str, Field(pattern=r"^[a-zA-Z_][a-zA-Z0-9_]{0,99}$")]


class Query(BaseModel):
    """One metric a pack reads: which samples (metric name, exact label filter), how (kind), in what unit."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=QUERY_NAME, description="the series is server.<pack>.<name>")
    title: str = Field(min_length=1, max_length=80)
    metric: str = Field(pattern=METRIC_NAME, description="the sample name (a histogram's, without _bucket)")
    labels: dict[LabelName, str] = Field(default_factory=dict, max_length=8, description="exact label values a sample must have")
    by: list[LabelName] = Field(default_factory=list, max_length=2, description="labels kept apart (summed over the others)")
    kind: Literal["counter", "gauge", "histogram"]
    quantiles: list[float] = Field(default=[0.5, 0.99], min_length=1, max_length=4, description="a histogram's quantiles")
    unit: str = Field(min_length=1, max_length=20, description="after scale; a counter's is per second")
    scale: float = Field(default=1.0, gt=0, description="multiplies every value (seconds → ms: 1000; a ratio → %: 100)")
    better: Literal["higher", "lower"] | None = None
    role: Literal["requests", "process_cpu", "cpu", "drop", "errors", "gc_pause"] | None = Field(
        default=None, description="what the server evidence reads it as (kneeboard.evidence): the server's request count, its "
        "process CPU (%), every CPU's time by mode (% keyed CPU.mode), a place requests are dropped, error answers, "
        "or GC pause time (%)")
    explains: str = Field(default="", max_length=120, description="a drop's or an error's place, in words the report uses")
    ok_values: list[str] = Field(default_factory=list, max_length=8,
                                 description="an errors query's `by` values that are not errors (NOERROR, NXDOMAIN)")

    @field_validator("quantiles")
    @classmethod
    def _quantiles(cls, value: list[float]) -> list[float]:
        if any(not 0 < q < 1 for q in value):
            raise ValueError("each quantile must be between 0 and 1 (exclusive)")
        return value

    @model_validator(mode="after")
    def _scale_finite(self) -> Query:
        if not math.isfinite(self.scale):
            raise ValueError("scale: must be finite")
        return self

    def keys(self, labels: dict[str, str]) -> str:
        """The value key of a sample with these labels (before a histogram's quantile suffix)."""
        return ".".join(labels.get(label, "") for label in self.by) if self.by else "value"


class Pack(BaseModel):
    """A pack file: its name (the file's stem), a title and its queries."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=NAME)
    title: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=500)
    queries: list[Query] = Field(min_length=1, max_length=40)

    @model_validator(mode="after")
    def _unique(self) -> Pack:
        names = [q.name for q in self.queries]
        if dup := next((n for n in names if names.count(n) > 1), None):
            raise ValueError(f"queries: {dup!r} appears twice")
        return self


class PackError(ValueError):
    """A pack file that cannot be read (its path and why)."""


def quantile_key(q: float) -> str:
    """0.5 → "p50", 0.99 → "p99", 0.999 → "p99.9"."""
    return f"p{q * 100:g}"


def read_pack(path: Path) -> Pack:
    """One pack file (YAML or JSON); PackError naming the file and the field."""
    try:
        pack = Pack.model_validate(safe_yaml.load(path.read_bytes(), max_bytes=MAX_PACK_BYTES))
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise PackError(f"{path.name}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    except Exception as exc:  # noqa: BLE001 - safe_yaml's Invalid, an unreadable file
        raise PackError(f"{path.name}: {exc}") from None
    if pack.name != path.stem:
        raise PackError(f"{path.name}: name {pack.name!r} must be the file's name without its extension")
    return pack


@functools.cache
def all_packs(directory: Path = PACKS_DIR) -> dict[str, Pack]:
    """Every pack in the directory by name (*.yaml, *.yml, *.json), read once per process."""
    files = sorted(p for p in directory.iterdir() if p.suffix in {".yaml", ".yml", ".json"})
    return {pack.name: pack for pack in map(read_pack, files)}


def pack(name: str) -> Pack:
    """One pack by name; KeyError naming the known ones."""
    packs = all_packs()
    if name not in packs:
        raise KeyError(f"no pack {name!r} (known: {', '.join(sorted(packs))})")
    return packs[name]
