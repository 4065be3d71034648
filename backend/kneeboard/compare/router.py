"""Comparison route."""

from __future__ import annotations

from fastapi import APIRouter, Query

from kneeboard.compare import service
from kneeboard.compare.schemas import Comparison
from kneeboard.deps import SessionDep

router = APIRouter(tags=["compare"])


@router.get("/compare", response_model=Comparison)
def compare(session: SessionDep,
            c: list[str] = Query(..., min_length=2, max_length=10, description="campaign ids (12) or variants (12@1 queue); the first is the reference")):  # fmt: skip
    """Two to ten campaigns, or variants of campaigns, side by side."""
    return service.build(c, session=session)
