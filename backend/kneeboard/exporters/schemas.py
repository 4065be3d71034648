"""A target's exporters as the API takes and shows them, and the packs as the API lists them."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from kneeboard.exporters.packs import EXPORTER_NAME, all_packs
from kneeboard.validators import MetricsUrl

MAX_EXPORTERS = 8


def _known_pack(name: str) -> str:
    if name not in all_packs():
        raise ValueError(f"no pack {name!r}; the packs are {', '.join(sorted(all_packs()))} (GET /api/v1/exporters/packs)")
    return name


PackName = Annotated[str, AfterValidator(_known_pack)]


class Exporter(BaseModel):
    """One Prometheus endpoint of the target and the packs that read it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=EXPORTER_NAME, description="what a plan's exporter monitor names, e.g. coredns")
    url: MetricsUrl = Field(description="http://HOST:PORT/PATH; HOST must pass the target policy, checked again before each point")
    packs: list[PackName] = Field(min_length=1, max_length=8,
                                                                     description="the query packs reading it")


Exporters = Annotated[list[Exporter], Field(max_length=MAX_EXPORTERS, description="its Prometheus exporters (names unique, each pack on one exporter only: its series are server.<pack>.*)")]


class QueryOut(BaseModel):
    """One query of a pack, as the UI shows it."""

    name: str
    title: str
    metric: str
    kind: str
    unit: str
    better: str | None
    series: str


class PackOut(BaseModel):
    """A pack: what a target's exporter may name in `packs`."""

    name: str
    title: str
    description: str
    queries: list[QueryOut]
