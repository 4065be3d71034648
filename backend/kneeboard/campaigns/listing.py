"""A page of the campaign list as the API shows it: stored progress and summary, points read only
for the few active campaigns on the page (their ETA moves every second)."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.progress import progress, stored_summary
from kneeboard.campaigns.service import queue_position
from kneeboard.campaigns.status import CAMPAIGN_ACTIVE
from kneeboard.campaigns.query import LIST_COLUMNS, Filters, Sort, find

BRIEF_KEYS = tuple(c.key for c in LIST_COLUMNS if not c.key.startswith("points_") and c.key != "summary")


def _live_points(campaigns: list[Campaign], *, session: Session) -> dict[int, list]:
    """The points (status, duration and start only) of the active campaigns among `campaigns`."""
    active = [c.id for c in campaigns if c.status in CAMPAIGN_ACTIVE]
    by_campaign: dict[int, list] = defaultdict(list)
    if active:
        rows = session.execute(
            select(Point.campaign_id, Point.id, Point.status, Point.duration_s, Point.started_at)
            .where(Point.campaign_id.in_(active)).order_by(Point.campaign_id, Point.seq)
        )  # fmt: skip
        for row in rows:
            by_campaign[row.campaign_id].append(row)
    return by_campaign


def brief(campaign: Campaign, *, session: Session, points: list | None = None) -> dict:
    """A campaign as a list row: its list columns, progress and stored summary."""
    return {
        **{key: getattr(campaign, key) for key in BRIEF_KEYS},
        "progress": progress(campaign, queue_position(campaign, session=session), points),
        "summary": stored_summary(campaign),
    }


def campaign_page(filters: Filters, *, session: Session, limit: int, offset: int = 0, cursor: str | None = None,
                  sort: Sort = "newest") -> dict:  # fmt: skip
    """One page of the list in `sort` order (newest first by default), with `total` and `next_cursor` (None on the last page)."""
    rows, total, next_cursor = find(filters, session=session, limit=limit, offset=offset, cursor=cursor, sort=sort)
    live = _live_points(rows, session=session)
    items = [brief(c, session=session, points=live.get(c.id, [])) for c in rows]
    return {"items": items, "total": total, "limit": limit, "offset": 0 if cursor is not None else offset, "next_cursor": next_cursor}
