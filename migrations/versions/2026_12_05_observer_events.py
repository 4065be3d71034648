"""observer events (issue 39): an observe assignment may carry host actions instead of a CPU profile

Revision ID: 0021_observer_events
Revises: 0020_observers
Create Date: 2026-12-05 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0021_observer_events"
down_revision = "0020_observers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """observe_assignments.events, and process/frequency_hz nullable (an assignment of events has neither)."""
    with op.batch_alter_table("observe_assignments") as batch:
        batch.add_column(sa.Column("events", sa.JSON(), nullable=True))
        batch.alter_column("process", existing_type=sa.String(15), nullable=True)
        batch.alter_column("frequency_hz", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    """Drop the events (their assignments first: they have no process)."""
    op.execute("DELETE FROM observe_assignments WHERE process IS NULL")
    with op.batch_alter_table("observe_assignments") as batch:
        batch.drop_column("events")
        batch.alter_column("process", existing_type=sa.String(15), nullable=False)
        batch.alter_column("frequency_hz", existing_type=sa.Integer(), nullable=False)
