"""agent credentials: one secret per remote agent, bound to its name

Revision ID: 0013_agent_credentials
Revises: 0012_token_scope
Create Date: 2026-11-27 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0013_agent_credentials"
down_revision = "0012_token_scope"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The agent_credentials table."""
    op.create_table(
        "agent_credentials",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("agent", sa.String(100), nullable=False, index=True),
        sa.Column("prefix", sa.String(12), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("agent_credentials")
