"""trend rows carry the server's CPU per unit of work (server evidence), refilled from the campaigns

Revision ID: 0017_trend_server_cost
Revises: 0016_target_exporters
Create Date: 2026-12-01 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_trend_server_cost"
down_revision = "0016_target_exporters"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """A server_cost column; the trend rows emptied so that GET /trends fills them again, with it."""
    with op.batch_alter_table("trend_entries") as batch:
        batch.add_column(sa.Column("server_cost", sa.Float(), nullable=True))
    op.execute("DELETE FROM trend_entries")


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("trend_entries") as batch:
        batch.drop_column("server_cost")
