"""observers (issue 38): an agent credential's role (load or observe) and the observe assignments of profiled points

Revision ID: 0020_observers
Revises: 0019_cpu_profiles
Create Date: 2026-12-04 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_observers"
down_revision = "0019_cpu_profiles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """agent_credentials.role (every existing credential is a load agent's) and the observe_assignments table."""
    with op.batch_alter_table("agent_credentials") as batch:
        batch.add_column(sa.Column("role", sa.String(10), nullable=False, server_default="load"))
    op.create_table(
        "observe_assignments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("observer", sa.String(100), nullable=False, index=True),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("point_id", sa.Integer(), sa.ForeignKey("points.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("process", sa.String(15), nullable=False),
        sa.Column("frequency_hz", sa.Integer(), nullable=False),
        sa.Column("start_at", sa.Float(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("acked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("process_seen", sa.Boolean(), nullable=True),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("report", sa.JSON(), nullable=True),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("observe_assignments")
    with op.batch_alter_table("agent_credentials") as batch:
        batch.drop_column("role")
