"""Alembic environment: DATABASE_URL from Kneeboard's settings, metadata from its models."""

from alembic import context

from kneeboard.db import Base, get_engine
from kneeboard.models import import_all

import_all()
target_metadata = Base.metadata


def run_migrations() -> None:
    """Apply migrations online against the configured database."""
    with get_engine().connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run_migrations()
