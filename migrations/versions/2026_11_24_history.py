"""history: indexed tags, stored progress and summary, trigram text search

Revision ID: 0007_history
Revises: 0006_schedules
Create Date: 2026-11-24 11:00:00
"""

from itertools import groupby

import sqlalchemy as sa
from alembic import op

from kneeboard.campaigns.progress import counts, summary

revision = "0007_history"
down_revision = "0006_schedules"
branch_labels = None
depends_on = None

STORED = ("points_total", "points_done", "points_failed", "points_cancelled")
TRIGRAM = {"ix_campaigns_name_trgm": "name", "ix_campaigns_source_trgm": "source"}
_campaigns = sa.table("campaigns", sa.column("id", sa.Integer), sa.column("tags", sa.JSON), sa.column("summary", sa.JSON),
                      *(sa.column(c, sa.Integer) for c in STORED))  # fmt: skip
_points = sa.table("points", sa.column("campaign_id", sa.Integer), sa.column("seq", sa.Integer), sa.column("status", sa.String),
                   sa.column("phase", sa.String), sa.column("metrics", sa.JSON))  # fmt: skip
_tags = sa.table("campaign_tags", sa.column("campaign_id", sa.Integer), sa.column("tag", sa.Text))


def upgrade() -> None:
    """The campaign_tags table, the stored counts and summary, a partial index of the listed ids, trigram indexes
    on Postgres; then fill them for existing rows."""
    op.create_table(
        "campaign_tags",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("tag", sa.Text(), primary_key=True),
    )
    op.create_index("ix_campaign_tags_tag_campaign", "campaign_tags", ["tag", "campaign_id"])
    with op.batch_alter_table("campaigns") as batch:
        for column in STORED:
            batch.add_column(sa.Column(column, sa.Integer(), nullable=True))
        batch.add_column(sa.Column("summary", sa.JSON(), nullable=True))
    shown = sa.text("NOT archived")
    op.create_index("ix_campaigns_shown", "campaigns", ["id"], postgresql_where=shown, sqlite_where=shown)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for index, column in TRIGRAM.items():
            op.execute(f"CREATE INDEX {index} ON campaigns USING gin (lower({column}) gin_trgm_ops)")
    _fill(op.get_bind())


def _fill(conn: sa.Connection, batch: int = 500) -> None:
    """Existing campaigns: tags copied into campaign_tags; counts and summary computed by campaigns/progress."""
    rows = [{"campaign_id": cid, "tag": tag} for cid, tags in conn.execute(sa.select(_campaigns.c.id, _campaigns.c.tags))
            for tag in sorted(set(tags or []))]  # fmt: skip
    for start in range(0, len(rows), batch):
        conn.execute(_tags.insert(), rows[start : start + batch])
    ids = [cid for (cid,) in conn.execute(sa.select(_campaigns.c.id).order_by(_campaigns.c.id))]
    update = _campaigns.update().where(_campaigns.c.id == sa.bindparam("cid")).values({c: sa.bindparam(c) for c in (*STORED, "summary")})
    for start in range(0, len(ids), batch):
        chunk = ids[start : start + batch]
        points = conn.execute(sa.select(_points).where(_points.c.campaign_id.in_(chunk)).order_by(_points.c.campaign_id, _points.c.seq))
        by_campaign = {cid: list(group) for cid, group in groupby(points, key=lambda p: p.campaign_id)}
        values = []
        for cid in chunk:
            mine = by_campaign.get(cid, [])
            values.append({"cid": cid, "summary": summary(mine), **{f"points_{k}": v for k, v in counts(mine).items()}})
        conn.execute(update, values)


def downgrade() -> None:
    """Drop them again."""
    if op.get_bind().dialect.name == "postgresql":
        for index in TRIGRAM:
            op.execute(f"DROP INDEX IF EXISTS {index}")
    op.drop_index("ix_campaigns_shown", table_name="campaigns")
    with op.batch_alter_table("campaigns") as batch:
        for column in ("summary", *reversed(STORED)):
            batch.drop_column(column)
    op.drop_index("ix_campaign_tags_tag_campaign", table_name="campaign_tags")
    op.drop_table("campaign_tags")
