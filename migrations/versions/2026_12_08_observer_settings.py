"""observer settings (issue 51): an observe assignment may carry host settings (a variant's host.*) to apply

Revision ID: 0024_observer_settings
Revises: 0023_target_process
Create Date: 2026-12-08 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0024_observer_settings"
down_revision = "0023_target_process"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """observe_assignments.settings (null: not a host assignment)."""
    with op.batch_alter_table("observe_assignments") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop observe_assignments.settings."""
    with op.batch_alter_table("observe_assignments") as batch:
        batch.drop_column("settings")
