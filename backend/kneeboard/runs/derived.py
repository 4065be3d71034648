"""A derived load, resolved when its phase starts: a fraction of what an earlier phase of the same run found (a
search's capacity, a sweep's knee or ceiling), stored on the point with where it came from. A resumed campaign resolves
it again from the same stored points, so to the same rate; a reference that found nothing skips the point, saying why."""

from __future__ import annotations

from kneeboard.analysis.capacity import BELOW
from kneeboard.analysis.conclusion import rate_text
from kneeboard.campaigns.analysis import found_by
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.progress import store
from kneeboard.campaigns.status import move_point
from kneeboard.db import session_scope
from kneeboard.plans.expand import rate_text_of, why_said
from kneeboard.plans.phases import derived_fractions, referenced
from kneeboard.states import PointStatus


def resolve(campaign_id: int, point_id: int) -> str | None:
    """Set a derived point's offered rate; returns why it could not be (the point is then cancelled with that
    reason), None when it was resolved or its load is fixed."""
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id, with_for_update=True, populate_existing=True)
        point = session.get(Point, point_id, populate_existing=True)
        derived = derived_fractions(campaign.plan["phases"][point.phase_index])
        if derived is None or point.status != PointStatus.PENDING:
            return None
        found, fractions = derived
        group = sorted((p for p in campaign.points if (p.phase_index, p.variant, p.repeat) == (point.phase_index, point.variant, point.repeat)),
                       key=lambda p: p.seq)  # fmt: skip
        fraction = fractions[min(group.index(point), len(fractions) - 1)]
        own = campaign.plan.get("derive", "own") == "own"
        variants = [v["label"] for v in campaign.plan.get("variants", [])]
        variant, repeat = (point.variant, point.repeat) if own or not variants else (variants[0], 0)
        value, what, unit = _found(campaign, found, variant, repeat)
        kept = (point.extra or {}).get("rate_from") or {}
        most = kept.get("most", point.offered_rate)  # the highest it can be: what caps and the policy were checked against
        if value is None:
            move_point(point, PointStatus.CANCELLED)
            point.error = f"skipped: {rate_text_of(found, fraction)}, but {what}"
            store(campaign)
            return point.error
        rate = round(value * fraction, 2)
        capped = most is not None and rate > most
        rate = min(rate, most) if most is not None else rate
        source = "" if own or not variants else f" (variant {variant!r}, repetition 1: one rate for every variant)"
        text = (f"{fraction * 100:g} % of the {rate_text(value, unit)} {what} found by phase {found['phase']!r}{source}"
                + (f"; held to {rate_text(most, unit)}, the most its plan allowed" if capped else "")
                + why_said(found))
        point.offered_rate = rate
        point.extra = {**(point.extra or {}), "rate_from": {**found, "fraction": fraction, "found": value, "rate": rate, "most": most,
                                                            "variant": variant, "repeat": repeat, "text": text}}  # fmt: skip
        store(campaign)
        return None


def _found(campaign: Campaign, found: dict, variant: str | None, repeat: int) -> tuple[float | None, str, str]:
    """(the figure, what it is — or why there is none —, the rate unit) of the referenced phase's run."""
    index = referenced(campaign.plan["phases"], found)
    members = [p for p in campaign.points if (p.phase_index, p.variant, p.repeat) == (index, variant, repeat)]
    analysis, searches, unit = found_by(campaign, members)
    name = f"phase {found['phase']!r}"
    if found["of"] == "capacity":
        entry = next((s for s in searches if s.get("criteria")), None)
        if entry is None:
            return None, f"{name} did not finish its search", unit
        criterion = entry["criteria"][found.get("criterion", 0)]
        if criterion["kind"] == BELOW or criterion["value"] is None:
            return None, f"{name} found no capacity at {criterion['criterion']}: {criterion['statement']}", unit
        return criterion["value"], f"capacity at {criterion['criterion']}", unit
    figure = (analysis or {}).get(found["of"])
    if not figure:
        return None, f"{name} found no {found['of']}" + (" (no point of it completed)" if not analysis else ""), unit
    if found["of"] == "knee":
        return figure["offered_rate"], f"knee ({figure['rule']} rule)", unit
    return figure["achieved_rate"], f"{figure['kind'].replace('_', ' ')} ceiling", unit
