"""a team's Prometheus servers, their allow-list, and a target's PromQL source

Revision ID: 0018_prometheus
Revises: 0017_trend_server_cost
Create Date: 2026-12-02 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_prometheus"
down_revision = "0017_trend_server_cost"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """prometheus_servers, prometheus_allowlist and targets.prometheus (none for every existing target)."""
    op.create_table(
        "prometheus_servers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("auth", sa.String(10), nullable=False),
        sa.Column("username", sa.String(200), nullable=True),
        sa.Column("credential", sa.String(2000), nullable=True),
        sa.Column("scrape_interval_s", sa.Float(), nullable=False),
        sa.Column("remote_write", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_by", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "prometheus_allowlist",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("updated_by", sa.String(200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("targets") as batch:
        batch.add_column(sa.Column("prometheus", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("targets") as batch:
        batch.drop_column("prometheus")
    op.drop_table("prometheus_allowlist")
    op.drop_table("prometheus_servers")
