"""The point a report details, per variant: its monitors and its CPU profile are shown in an exported file and on a
share link's page (which have no evidence panel to open)."""

from __future__ import annotations

from kneeboard.campaigns.models import Campaign, Point


def featured_points(points: list[Point]) -> dict[str | None, Point]:
    """Per variant, the point the report details: its longest completed stability point (the one the stability chart
    draws), else its completed point with the highest achieved rate (where the monitors tell most) whose load was sent."""
    done = [p for p in points if p.status == "completed" and not ((p.extra or {}).get("generator") or {}).get("limited")]
    featured: dict[str | None, Point] = {}
    for variant in dict.fromkeys(p.variant for p in done):
        mine = [p for p in done if p.variant == variant]
        stability = [p for p in mine if p.phase == "stability"]
        featured[variant] = max(stability, key=lambda p: p.duration_s) if stability else max(mine, key=lambda p: p.metrics.get("achieved_rate") or 0)
    return featured


def cpu_profile_points(campaign: Campaign) -> list[int]:
    """The points whose CPU profile a file or a share page shows: the featured ones, when the plan asks for profiles."""
    if not (campaign.plan or {}).get("cpu_profile"):
        return []
    return [p.id for p in featured_points(campaign.points).values()]
