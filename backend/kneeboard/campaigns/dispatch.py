"""How a launched campaign reaches its agent. The app injects the dispatcher (Celery), so
campaigns never import the worker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request

Dispatcher = Callable[[int, str], None]  # (campaign id, agent name)


def get_dispatcher(request: Request) -> Dispatcher:
    """The dispatcher main.py set on the app."""
    return request.app.state.dispatch


DispatcherDep = Annotated[Dispatcher, Depends(get_dispatcher)]
