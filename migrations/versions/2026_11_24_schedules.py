"""schedules: a plan launched on a cron expression by Celery beat

Revision ID: 0006_schedules
Revises: 0005_runs_leases
Create Date: 2026-11-24 09:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0006_schedules"
down_revision = "0005_runs_leases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The schedules table."""
    op.create_table(
        "schedules",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("plan_id", sa.Integer(), sa.ForeignKey("plans.id", ondelete="CASCADE"), nullable=False),
        sa.Column("cron", sa.String(length=120), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("thresholds", sa.JSON(), nullable=False),
        sa.Column("baseline", sa.String(length=40), nullable=True),
        sa.Column("next_run_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_run_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_campaign_id", sa.Integer(), sa.ForeignKey("campaigns.id", ondelete="SET NULL"), nullable=True),
        sa.Column("last_gate", sa.Text(), nullable=True),
        sa.Column("missed", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("last_missed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("skipped", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_by", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_schedules_plan_id", "schedules", ["plan_id"])


def downgrade() -> None:
    """Drop the schedules table."""
    op.drop_index("ix_schedules_plan_id", table_name="schedules")
    op.drop_table("schedules")
