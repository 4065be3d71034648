"""Exporter routes: the query packs a target's exporters may name."""

from __future__ import annotations

from fastapi import APIRouter

from kneeboard.exporters.packs import all_packs
from kneeboard.exporters.schemas import PackOut, QueryOut

router = APIRouter(prefix="/exporters", tags=["exporters"])


@router.get("/packs", response_model=list[PackOut])
def list_packs():
    """Every query pack (data files under exporters/packs/), with its queries and the series each gives."""
    return [PackOut(name=p.name, title=p.title, description=p.description,
                    queries=[QueryOut(**q.model_dump(include={"name", "title", "metric", "kind", "unit", "better"}),
                                      series=f"server.{p.name}.{q.name}") for q in p.queries])
            for p in all_packs().values()]
