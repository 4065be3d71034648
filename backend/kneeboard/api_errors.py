"""Domain errors to HTTP: the one place that knows which status each error means."""

from __future__ import annotations

import logging
import uuid

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from sqlalchemy.exc import DataError

from kneeboard.auth.http import CSP, HEADERS
from kneeboard.errors import Conflict, Gone, Invalid, NotFound, TooLarge, TooMany, Unavailable

log = logging.getLogger("kneeboard.api")

_STATUS = {NotFound: 404, Conflict: 409, Gone: 410, TooLarge: 413, Unavailable: 503}


def _name_discriminator(errors: list[dict]) -> list[dict]:
    """Make an unknown `tool` or `kind` name the field itself, not only the enclosing object."""
    for error in errors:
        if error.get("type") in {"union_tag_invalid", "union_tag_not_found"}:
            error["loc"] = (*error["loc"], error.get("ctx", {}).get("discriminator", "").strip("'"))
    return errors


def _safe_input(errors: list[dict]) -> list[dict]:
    """Echo only short plain inputs back: never bytes, huge documents or objects that do not serialise."""
    for error in errors:
        value = error.get("input")
        if not (value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 200)):
            error["input"] = None
        if isinstance(error.get("ctx"), dict):
            error["ctx"] = {k: v if isinstance(v, (str, int, float, bool)) else str(v) for k, v in error["ctx"].items()}
    return errors


def request_id(request: Request) -> str:
    """The request's id (set by a middleware upstream, or made here), for logs and the 500 body."""
    rid = getattr(request.state, "request_id", None) or uuid.uuid4().hex[:16]
    request.state.request_id = rid
    return rid


def _unprocessable(errors: list[dict]) -> JSONResponse:
    errors = _safe_input(errors)
    return JSONResponse({"detail": jsonable_encoder(_name_discriminator(errors))}, status_code=422)


def install_handlers(app: FastAPI) -> None:
    """Render domain errors: NotFound 404, Conflict 409, Gone 410, TooMany 429 (Retry-After), Invalid 422 (pydantic's shape);
    a value the database cannot store 422; anything unexpected 500 with only a request id, logged with it."""

    for error_type, status in _STATUS.items():
        @app.exception_handler(error_type)
        async def _plain(_request: Request, exc: Exception, status: int = status) -> JSONResponse:
            return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.exception_handler(TooMany)
    async def _too_many(_request: Request, exc: TooMany) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=429, headers={"Retry-After": str(exc.retry_after_s)})

    @app.exception_handler(Invalid)
    async def _invalid(_request: Request, exc: Invalid) -> JSONResponse:
        return _unprocessable(exc.details())

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _unprocessable(list(exc.errors()))

    @app.exception_handler(DataError)
    async def _data(_request: Request, exc: DataError) -> JSONResponse:
        log.warning("database refused a value: %s", exc.orig)
        return JSONResponse({"detail": "a value is out of the range the database can store"}, status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        rid = request_id(request)
        log.error("unhandled error, request_id=%s %s %s", rid, request.method, request.url.path, exc_info=exc)
        # rendered outside the header middleware, so it carries the security headers itself
        return JSONResponse({"detail": "internal error", "request_id": rid}, status_code=500,
                            headers={**HEADERS, "content-security-policy": CSP})
