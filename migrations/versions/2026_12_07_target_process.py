"""target process (issue 46): the server's command name, read from /proc by the process monitor

Revision ID: 0023_target_process
Revises: 0022_server_method
Create Date: 2026-12-07 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0023_target_process"
down_revision = "0022_server_method"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """targets.process (null: the target names no server process)."""
    with op.batch_alter_table("targets") as batch:
        batch.add_column(sa.Column("process", sa.String(15), nullable=True))


def downgrade() -> None:
    """Drop targets.process."""
    with op.batch_alter_table("targets") as batch:
        batch.drop_column("process")
