"""trends: headline figures per completed campaign, change points, webhooks and their outbox

Revision ID: 0014_trends
Revises: 0013_agent_credentials
Create Date: 2026-11-27 10:00:00
"""

from alembic import op
import sqlalchemy as sa


revision = "0014_trends"
down_revision = "0013_agent_credentials"
branch_labels = None
depends_on = None


def _time(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """trend_entries, change_points, webhooks, webhook_deliveries, webhook_allowlist; campaigns by plan (a trend's fill)."""
    op.create_index("ix_campaigns_plan_id", "campaigns", ["plan_id"])
    figures = ("capacity", "capacity_low", "capacity_high", "capacity_bound", "max_achieved_rate", "latency_p50_ms", "latency_p99_ms", "loss_pct")
    op.create_table(
        "trend_entries",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("plan_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("tool", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        _time("ended_at", nullable=True),
        sa.Column("capacity_kind", sa.String(length=12), nullable=True),
        *(sa.Column(name, sa.Float(), nullable=True) for name in figures),
    )
    op.create_index("ix_trend_entries_plan", "trend_entries", ["plan_id", "ended_at"])
    op.create_index("ix_trend_entries_target_tool", "trend_entries", ["target_id", "tool", "ended_at"])
    op.create_table(
        "change_points",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("metric", sa.String(length=40), nullable=False),
        sa.Column("before_campaign_id", sa.Integer(), sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("after_campaign_id", sa.Integer(), sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        *(sa.Column(name, sa.Float(), nullable=False) for name in ("mean_before", "mean_after", "diff", "ci_low", "ci_high")),
        sa.Column("change_pct", sa.Float(), nullable=True),
        sa.Column("pvalue", sa.Float(), nullable=False),
        sa.Column("direction", sa.String(length=8), nullable=False),
        sa.Column("differences", sa.JSON(), nullable=False),
        _time("detected_at"),
        sa.UniqueConstraint("scope", "metric", "after_campaign_id", name="uq_change_points_scope_metric_after"),
    )
    op.create_index("ix_change_points_scope", "change_points", ["scope"])
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("plan_id", sa.Integer(), sa.ForeignKey("plans.id", ondelete="CASCADE"), nullable=True),
        sa.Column("schedule_id", sa.Integer(), sa.ForeignKey("schedules.id", ondelete="CASCADE"), nullable=True),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.String(length=200), nullable=True),
        _time("created_at"),
    )
    op.create_index("ix_webhooks_plan_id", "webhooks", ["plan_id"])
    op.create_index("ix_webhooks_schedule_id", "webhooks", ["schedule_id"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("webhook_id", sa.Integer(), sa.ForeignKey("webhooks.id", ondelete="CASCADE"), nullable=False),
        sa.Column("dedup_key", sa.String(length=200), nullable=False, unique=True),
        sa.Column("event", sa.String(length=20), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _time("next_attempt_at"),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _time("delivered_at", nullable=True),
        _time("created_at"),
    )
    op.create_index("ix_webhook_deliveries_webhook_id", "webhook_deliveries", ["webhook_id"])
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_table(
        "webhook_allowlist",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("updated_by", sa.String(length=200), nullable=True),
        _time("updated_at"),
    )


def downgrade() -> None:
    """Drop them again."""
    for table in ("webhook_allowlist", "webhook_deliveries", "webhooks", "change_points", "trend_entries"):
        op.drop_table(table)
    op.drop_index("ix_campaigns_plan_id", "campaigns")
