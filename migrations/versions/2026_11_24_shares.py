"""share links: a hashed token bound to the campaigns it names, with their pinned analyses

Revision ID: 0008_shares
Revises: 0007_history
Create Date: 2026-11-24 12:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0008_shares"
down_revision = "0007_history"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The shares and share_campaigns tables."""
    op.create_table(
        "shares",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False, unique=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "share_campaigns",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("share_id", sa.Integer(), sa.ForeignKey("shares.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaigns.id", ondelete="SET NULL"), nullable=True),
        sa.Column("campaign_name", sa.String(length=200), nullable=False),
        sa.Column("analysis", sa.JSON(), nullable=True),
        sa.Column("analysis_version", sa.String(length=64), nullable=False),
    )
    op.create_index("ix_share_campaigns_share_id", "share_campaigns", ["share_id"])
    op.create_index("ix_share_campaigns_campaign_id", "share_campaigns", ["campaign_id"])


def downgrade() -> None:
    """Drop the share tables."""
    op.drop_index("ix_share_campaigns_campaign_id", table_name="share_campaigns")
    op.drop_index("ix_share_campaigns_share_id", table_name="share_campaigns")
    op.drop_table("share_campaigns")
    op.drop_table("shares")
