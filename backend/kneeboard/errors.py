"""Domain errors and how the API renders them."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


class NotFound(Exception):
    """An id that does not exist (HTTP 404)."""

    def __init__(self, what: str, ident: object) -> None:
        super().__init__(f"{what} {ident} not found")


class Conflict(Exception):
    """A request that the current state does not allow (HTTP 409)."""


def invalid(loc: tuple[str | int, ...], message: str) -> RequestValidationError:
    """A 422 naming the field at `loc`, shaped like pydantic's own errors."""
    return RequestValidationError([{"type": "value_error", "loc": ("body", *loc), "msg": message, "input": None}])


def invalid_query(name: str, message: str) -> RequestValidationError:
    """A 422 naming a query parameter."""
    return RequestValidationError([{"type": "value_error", "loc": ("query", name), "msg": message, "input": None}])


def install_handlers(app: FastAPI) -> None:
    """Render NotFound as 404 and Conflict as 409, with {"detail": ...}."""

    @app.exception_handler(NotFound)
    async def _not_found(_request: Request, exc: NotFound) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(Conflict)
    async def _conflict(_request: Request, exc: Conflict) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)
