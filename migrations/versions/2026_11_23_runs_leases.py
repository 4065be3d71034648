"""runs: leases, attempts, archive, dispatch time

Revision ID: 0005_runs_leases
Revises: 0004_target_policy
Create Date: 2026-11-23 10:45:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0005_runs_leases"
down_revision = "0004_target_policy"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Leases and attempts on campaigns, attempts on points, the archive flag."""
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(length=120), nullable=True))
        batch.add_column(sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("dispatched_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("attempt", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("archived", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.create_index("ix_campaigns_archived", ["archived"])
    with op.batch_alter_table("points") as batch:
        batch.add_column(sa.Column("attempt", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("points") as batch:
        batch.drop_column("attempt")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_index("ix_campaigns_archived")
        for column in ("archived", "attempt", "dispatched_at", "lease_expires_at", "lease_owner"):
            batch.drop_column(column)
