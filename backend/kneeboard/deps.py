"""FastAPI dependencies: the route owns the transaction."""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy.orm import Session

from kneeboard.db import get_sessionmaker


def get_session() -> Iterator[Session]:
    """A session per request, committed when the route returns without error."""
    session = get_sessionmaker()()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
