"""figure rules: stored summaries read as the analysis reads them (the ceiling over repetitions, generator-limited
points left out, the mean latency at low load); trend rows, a cache of those figures, are dropped to be filled again

Revision ID: 0015_figure_rules
Revises: 0014_trends
Create Date: 2026-11-29 09:00:00
"""

from itertools import groupby

import sqlalchemy as sa
from alembic import op

from kneeboard.campaigns.progress import summary

revision = "0015_figure_rules"
down_revision = "0014_trends"
branch_labels = None
depends_on = None

_campaigns = sa.table("campaigns", sa.column("id", sa.Integer), sa.column("summary", sa.JSON))
_points = sa.table("points", *(sa.column(c, t) for c, t in (
    ("campaign_id", sa.Integer), ("seq", sa.Integer), ("status", sa.String), ("phase", sa.String), ("concurrency", sa.Integer),
    ("offered_rate", sa.Float), ("repeat", sa.Integer), ("variant", sa.String), ("metrics", sa.JSON), ("extra", sa.JSON))))  # fmt: skip


def upgrade(batch: int = 500) -> None:
    """Every campaign's stored summary computed again from its points; the trend rows emptied (GET /trends fills them)."""
    conn = op.get_bind()
    ids = [cid for (cid,) in conn.execute(sa.select(_campaigns.c.id).order_by(_campaigns.c.id))]
    update = _campaigns.update().where(_campaigns.c.id == sa.bindparam("cid")).values(summary=sa.bindparam("figures"))
    for start in range(0, len(ids), batch):
        chunk = ids[start : start + batch]
        points = conn.execute(sa.select(_points).where(_points.c.campaign_id.in_(chunk)).order_by(_points.c.campaign_id, _points.c.seq))
        by_campaign = {cid: list(group) for cid, group in groupby(points, key=lambda p: p.campaign_id)}
        conn.execute(update, [{"cid": cid, "figures": summary(by_campaign.get(cid, []))} for cid in chunk])
    op.execute("DELETE FROM trend_entries")


def downgrade() -> None:
    """Nothing to undo: the summaries stay as computed (they are recomputed whenever a campaign's points change)."""
