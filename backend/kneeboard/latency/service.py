"""A point's stored latency histogram (result extra `hdr`, `hdr_intervals`), decoded and bucketed."""

from __future__ import annotations

from sqlalchemy.orm import Session

from kneeboard.analysis import hdr
from kneeboard.campaigns.models import Point
from kneeboard.errors import Conflict, NotFound
from kneeboard.states import PointStatus
from kneeboard.tools.registry import adapter


def _why_none(point: Point) -> str:
    """Why a point has no stored histogram, as plainly as its record tells."""
    head = f"point {point.id} has no stored latency histogram"
    if point.status != PointStatus.COMPLETED:
        return f"{head}: it is {point.status} (a histogram is stored when a point completes)"
    capture = next((w for w in point.warnings or [] if "latency capture" in w), None)
    if capture:
        return f"{head}: {capture}"
    if point.campaign.source != "live":
        return f"{head}: it was imported ({point.campaign.source}) and the import carried none"
    return f"{head}: its tool ({point.campaign.tool}) records none"


def _warmup_s(point: Point) -> float:
    steady = (point.extra or {}).get("steady") or {}
    if steady.get("warmup_s") is not None:
        return float(steady["warmup_s"])
    try:
        return adapter(point.campaign.tool).warmup_s
    except KeyError:
        return 0.0


def point_histogram(point_id: int, *, session: Session, window: str = "all", max_buckets: int = hdr.MAX_BUCKETS) -> dict:
    """The point's whole-run histogram ("all"), or its steady window's ("steady": interval histograms after the
    warm-up, merged); NotFound for an unknown point, Conflict saying why when nothing is stored."""
    point = session.get(Point, point_id)
    if point is None:
        raise NotFound("point", point_id)
    extra = point.extra or {}
    intervals = None
    try:
        if window == "steady":
            if not extra.get("hdr_intervals"):
                raise Conflict(_why_none(point) if not extra.get("hdr") else
                               f"point {point_id} has no per-interval histograms: only its whole run (window=all) can be shown")  # fmt: skip
            chosen = hdr.steady_part(extra["hdr_intervals"], _warmup_s(point))
            if not chosen:
                raise Conflict(f"point {point_id} has no interval after its {_warmup_s(point):g} s warm-up: ask for window=all")
            histogram, intervals = hdr.merge(chosen), len(chosen)
        elif extra.get("hdr"):
            histogram = hdr.decode(extra["hdr"])
        else:
            raise Conflict(_why_none(point))
    except ValueError as exc:
        raise Conflict(f"point {point_id}'s stored histogram cannot be read ({exc})") from None
    return {"point_id": point_id, "window": window, "intervals": intervals, **hdr.distribution_ms(histogram, max_buckets)}
