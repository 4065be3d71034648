"""a point's CPU profile (issue 38): the folded stacks of the plan's process over its steady window

Revision ID: 0019_cpu_profiles
Revises: 0018_prometheus
Create Date: 2026-12-03 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_cpu_profiles"
down_revision = "0018_prometheus"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The cpu_profiles table, one row per profiled point."""
    op.create_table(
        "cpu_profiles",
        sa.Column("point_id", sa.Integer(), sa.ForeignKey("points.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("process", sa.String(15), nullable=False),
        sa.Column("frequency_hz", sa.Integer(), nullable=False),
        sa.Column("window_s", sa.Float(), nullable=False),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("all_samples", sa.Integer(), nullable=False),
        sa.Column("stack_depth", sa.String(30), nullable=True),
        sa.Column("stacks", sa.Integer(), nullable=False),
        sa.Column("dropped_stacks", sa.Integer(), nullable=False),
        sa.Column("dropped_samples", sa.Integer(), nullable=False),
        sa.Column("folded", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("cpu_profiles")
