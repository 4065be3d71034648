"""a target's metrics endpoint (its node_exporter), for the node monitor

Revision ID: 0010_target_metrics_url
Revises: 0009_notes_baselines
Create Date: 2026-11-23 13:30:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0010_target_metrics_url"
down_revision = "0009_notes_baselines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Targets may name a node_exporter URL (null: none)."""
    with op.batch_alter_table("targets") as batch:
        batch.add_column(sa.Column("metrics_url", sa.String(300), nullable=True))


def downgrade() -> None:
    """Drop it again."""
    with op.batch_alter_table("targets") as batch:
        batch.drop_column("metrics_url")
