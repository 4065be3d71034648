"""target policy

Revision ID: 0004_target_policy
Revises: 0003_auth_audit
Create Date: 2026-11-23 11:05:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0004_target_policy"
down_revision = "0003_auth_audit"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: the one-row target policy table (absent row = the built-in default)."""
    op.create_table(
        "target_policy",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("updated_by", sa.String(length=200), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("target_policy")
