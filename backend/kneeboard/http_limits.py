"""Request limits at the HTTP edge: body size (413), JSON NaN/Infinity/nesting/control characters (422),
and ids beyond a 64-bit key in the path (404), so hostile input never reaches a route as a 5xx."""

from __future__ import annotations

import email.message
import json
from urllib.parse import parse_qsl

import anyio
from fastapi import FastAPI, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kneeboard.config import get_settings
from kneeboard.errors import Invalid, NotFound
from kneeboard.inputs import bad_char, check_json, id_in_range

THREAD_ABOVE = 65_536  # JSON bodies larger than this are checked in a worker thread
# An oversize body is read and dropped up to DRAIN_BYTES or DRAIN_SECONDS, whichever comes first, so that a plain
# client (which sends its whole body before it reads) is still there to read the 413; beyond that the connection is closed.
DRAIN_BYTES = 32 * 1_048_576
DRAIN_SECONDS = 10.0


class _TooLarge(HTTPException):
    """A streamed body passed its cap (an HTTPException, so a route reading the body answers 413 too)."""

    def __init__(self, cap: int, more: bool) -> None:
        super().__init__(413, f"request body over {cap} bytes")
        self.more = more  # whether the client is still sending


def body_cap(path: str) -> int:
    """The largest body a path accepts: the import routes have their own caps, everything else MAX_BODY_BYTES."""
    settings = get_settings()
    if path.endswith("/campaigns/import"):
        return settings.max_import_bytes
    if path.endswith("/plans/import.yaml"):
        return settings.max_yaml_bytes
    return settings.max_body_bytes


async def _send_json(send: Send, status: int, body: dict, *, close: bool = False) -> None:
    payload = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + ([(b"connection", b"close")] if close else [])})
    await send({"type": "http.response.body", "body": payload})


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type is one FastAPI parses as JSON (none at all, application/json or +json, any case,
    with parameters): the guard must see every body the routes will."""
    if not content_type:
        return True
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


async def drain(receive: Receive, headers: Headers, *, more: bool = True) -> None:
    """Read and drop what is left of a request body, up to DRAIN_BYTES or DRAIN_SECONDS (a client that waits for
    `100-continue` has sent nothing), so that a plain client is still reading when it is refused."""
    if more and "100-continue" not in headers.get("expect", "").lower():
        dropped = 0
        with anyio.move_on_after(DRAIN_SECONDS):
            while more and dropped < DRAIN_BYTES:
                message = await receive()
                dropped += len(message.get("body", b""))
                more = message["type"] == "http.request" and message.get("more_body", False)


async def _too_large(receive: Receive, send: Send, cap: int, headers: Headers, *, more: bool = True) -> None:
    """Answer 413 so that a plain client reads it: drop the rest of the body first, then answer and close."""
    await drain(receive, headers, more=more)
    await _send_json(send, 413, {"detail": f"request body over {cap} bytes"}, close=True)


class BodyLimitMiddleware:
    """422 for control characters in the query string; 413 for a body over its path's cap (declared or
    streamed); 422 for a JSON body with NaN, Infinity, nesting deeper than 64 or control characters.
    The checked body is replayed to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if problem := _query_problem(scope.get("query_string", b"")):
            return await _send_json(send, 422, {"detail": [problem]})
        if scope["method"] in {"GET", "HEAD", "OPTIONS"}:
            return await self.app(scope, receive, send)
        cap, headers = body_cap(scope["path"]), Headers(scope=scope)
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            return await _too_large(receive, send, cap, headers)
        if not is_json(headers.get("content-type")):
            return await self._streamed(scope, receive, send, cap)
        try:
            body = await _read_all(receive, cap)
        except _TooLarge as exc:
            return await _too_large(receive, send, cap, headers, more=exc.more)
        try:
            if len(body) > THREAD_ABOVE:
                await run_in_threadpool(check_json, body)
            else:
                check_json(body)
        except Invalid as exc:
            return await _send_json(send, 422, {"detail": exc.details()})
        await self.app(scope, _replay(body, receive), send)

    async def _streamed(self, scope: Scope, receive: Receive, send: Send, cap: int) -> None:
        seen, started = 0, False

        async def counting() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > cap:
                raise _TooLarge(cap, message.get("more_body", False))
            return message

        async def watching(message: Message) -> None:
            nonlocal started
            started |= message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting, watching)
        except _TooLarge as exc:
            if started:
                raise
            await _too_large(receive, send, cap, Headers(scope=scope), more=exc.more)


def _query_problem(raw: bytes) -> dict | None:
    """A pydantic-style error for the first query parameter holding a control character, or None."""
    for name, value in parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="replace"):
        if why := bad_char(name) or bad_char(value):
            return {"type": "value_error", "loc": ["query", name[:60]], "msg": f"contains {why}", "input": None}
    return None


async def _read_all(receive: Receive, cap: int) -> bytes:
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        more = message.get("more_body", False)
        if size > cap:
            raise _TooLarge(cap, more)
        chunks.append(chunk)
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def ids_in_range(request: Request) -> None:
    """Router dependency: a path id (`…_id`) beyond a 64-bit key is a 404, never a database error."""
    for name, value in request.path_params.items():
        if name.endswith("id") and isinstance(value, str) and not id_in_range(value):
            raise NotFound(name.removesuffix("_id"), value)


def install_limits(app: FastAPI) -> None:
    """Add the body limits (inside the security middleware, so unauthenticated requests get 401 first)."""
    app.add_middleware(BodyLimitMiddleware)
