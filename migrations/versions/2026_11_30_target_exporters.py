"""a target's Prometheus exporters ([{name, url, packs}]), for exporter monitors

Revision ID: 0016_target_exporters
Revises: 0015_figure_rules
Create Date: 2026-11-30 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_target_exporters"
down_revision = "0015_figure_rules"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Targets list their exporters (none for every existing target)."""
    with op.batch_alter_table("targets") as batch:
        batch.add_column(sa.Column("exporters", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("targets") as batch:
        batch.drop_column("exporters")
