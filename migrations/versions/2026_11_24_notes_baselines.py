"""campaign notes, a pinned baseline per plan

Revision ID: 0009_notes_baselines
Revises: 0008_shares
Create Date: 2026-11-23 11:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0009_notes_baselines"
down_revision = "0008_shares"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Notes on campaigns; plans may pin the campaign their reports compare against."""
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("notes", sa.Text(), nullable=False, server_default=""))
    with op.batch_alter_table("plans") as batch:
        batch.add_column(sa.Column("baseline_campaign_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_plans_baseline_campaign", "campaigns", ["baseline_campaign_id"], ["id"], ondelete="SET NULL")


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("plans") as batch:
        batch.drop_constraint("fk_plans_baseline_campaign", type_="foreignkey")
        batch.drop_column("baseline_campaign_id")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("notes")
