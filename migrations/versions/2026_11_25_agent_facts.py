"""agent facts: what a remote agent told about itself at registration

Revision ID: 0011_agent_facts
Revises: 0010_target_metrics_url
Create Date: 2026-11-25 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0011_agent_facts"
down_revision = "0010_target_metrics_url"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Agents keep their facts: CPU count, addresses, clock offset, how they connect."""
    with op.batch_alter_table("agents") as batch:
        batch.add_column(sa.Column("facts", sa.JSON(), nullable=False, server_default="{}"))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("facts")
