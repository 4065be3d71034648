"""trend entries say how the server's figures were read (issue 46): counters over the load's own window, or the older
mean of scrape intervals, so a trend never reads the change of method as a change in the server

Revision ID: 0022_server_method
Revises: 0021_observer_events
Create Date: 2026-12-06 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0022_server_method"
down_revision = "0021_observer_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """trend_entries.server_method (NULL: no server figure, or read before the method was kept)."""
    with op.batch_alter_table("trend_entries") as batch:
        batch.add_column(sa.Column("server_method", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop server_method."""
    with op.batch_alter_table("trend_entries") as batch:
        batch.drop_column("server_method")
