"""Which campaigns a list shows: every filter, the order and the page are done by the database.

Tags are matched through the indexed campaign_tags table; text through LIKE on lower(name) and
lower(source), which Postgres answers from pg_trgm GIN indexes (see migration 0007_history).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import ColumnElement, Select, exists, func, or_, select
from sqlalchemy.orm import Session, load_only

from kneeboard.campaigns.models import Campaign, CampaignTag
from kneeboard.errors import invalid_query
from kneeboard.inputs import MAX_ID

# what a list row needs: never the plan, environment, analysis, or any point
LIST_COLUMNS = (
    Campaign.id, Campaign.name, Campaign.tool, Campaign.status, Campaign.partial, Campaign.error, Campaign.tags,
    Campaign.agent, Campaign.source, Campaign.attempt, Campaign.archived, Campaign.plan_id, Campaign.target_id,
    Campaign.target, Campaign.created_at, Campaign.started_at, Campaign.ended_at, Campaign.points_total,
    Campaign.points_done, Campaign.points_failed, Campaign.points_cancelled, Campaign.summary,
)  # fmt: skip


@dataclass(frozen=True)
class Filters:
    """What a campaign list is narrowed to; None (or empty) means any."""

    status: str | None = None
    target_id: int | None = None
    tool: str | None = None
    tag: str | None = None
    q: str | None = None
    archived: bool = False


def like_pattern(text: str) -> str:
    """`%text%` in lower case with LIKE's wildcards escaped (escape character backslash)."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def conditions(filters: Filters) -> list[ColumnElement[bool]]:
    """The WHERE clauses of `filters`, for a select over campaigns."""
    where: list[ColumnElement[bool]] = [Campaign.archived == filters.archived]
    if filters.status:
        where.append(Campaign.status == filters.status)
    if filters.target_id:
        where.append(Campaign.target_id == filters.target_id)
    if filters.tool:
        where.append(Campaign.tool == filters.tool)
    if filters.tag:
        where.append(exists().where(CampaignTag.campaign_id == Campaign.id, CampaignTag.tag == filters.tag))
    if filters.q:
        pattern = like_pattern(filters.q)
        where.append(or_(func.lower(Campaign.name).like(pattern, escape="\\"), func.lower(Campaign.source).like(pattern, escape="\\")))
    return where


def encode_cursor(campaign_id: int) -> str:
    """The cursor after a page whose last campaign is `campaign_id`."""
    return f"i{campaign_id}"


def decode_cursor(cursor: str) -> int:
    """The campaign id a cursor stands for; a 422 naming `cursor` when it is not one of ours."""
    digits = cursor[1:]
    if not (cursor.startswith("i") and digits.isascii() and digits.isdigit() and len(digits) <= 19 and int(digits) <= MAX_ID):
        raise invalid_query("cursor", f"{cursor[:40]!r} is not a cursor this API gave out (next_cursor)")
    return int(digits)


# the orders a list can be in; the keyset cursor walks the two by id, a list by name pages by offset only
Sort = Literal["newest", "oldest", "name"]


def page_query(filters: Filters, *, limit: int, offset: int, cursor: str | None, sort: Sort = "newest") -> Select:
    """Campaigns in `sort` order with only the list's columns: after `cursor` when given, else from `offset`;
    one row more than `limit`, which tells whether another page follows."""
    query = select(Campaign).options(load_only(*LIST_COLUMNS)).where(*conditions(filters))
    if cursor is not None:
        if sort == "name":
            raise invalid_query("cursor", "a list sorted by name pages by offset, not by cursor")
        after = decode_cursor(cursor)
        query = query.where(Campaign.id > after if sort == "oldest" else Campaign.id < after)
    order = {"newest": (Campaign.id.desc(),), "oldest": (Campaign.id.asc(),), "name": (func.lower(Campaign.name), Campaign.id.desc())}[sort]
    return query.order_by(*order).offset(0 if cursor is not None else offset).limit(limit + 1)


def find(filters: Filters, *, session: Session, limit: int, offset: int = 0, cursor: str | None = None,
         sort: Sort = "newest") -> tuple[list[Campaign], int, str | None]:  # fmt: skip
    """One page of campaigns (list columns only), how many match in all, and the next page's cursor (None at the end,
    and for a list by name)."""
    rows = list(session.scalars(page_query(filters, limit=limit, offset=offset, cursor=cursor, sort=sort)))
    next_cursor = encode_cursor(rows[limit - 1].id) if len(rows) > limit and sort != "name" else None
    total = session.scalar(select(func.count(Campaign.id)).where(*conditions(filters)))
    return rows[:limit], total, next_cursor
