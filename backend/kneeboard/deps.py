"""FastAPI dependencies: the route owns the transaction."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session

from kneeboard.db import session_scope


def get_session() -> Iterator[Session]:
    """A session per request, committed when the route returns without error."""
    with session_scope() as session:
        yield session


# scope="function": commit before the response is sent, so a client that reads right after a write sees it
SessionDep = Annotated[Session, Depends(get_session, scope="function")]
