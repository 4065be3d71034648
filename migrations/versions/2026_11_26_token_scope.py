"""token scope: a token's own role (never above its owner's) and when it was last used

Revision ID: 0012_token_scope
Revises: 0011_agent_facts
Create Date: 2026-11-26 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0012_token_scope"
down_revision = "0011_agent_facts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Tokens get a role (null: the owner's) and a last-use time."""
    with op.batch_alter_table("api_tokens") as batch:
        batch.add_column(sa.Column("role", sa.String(20), nullable=True))
        batch.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("last_used_at")
        batch.drop_column("role")
