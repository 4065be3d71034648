"""The HTTP guard, installed in one place: Host check, security headers, authentication, roles by method, CSRF."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kneeboard.audit.service import record_refusal
from kneeboard.auth import resolve
from kneeboard.auth.errors import Forbidden, Unauthenticated
from kneeboard.auth.origin import same_origin
from kneeboard.auth.principal import Principal
from kneeboard.http_limits import drain
from kneeboard.auth.roles import API, SAFE_METHODS, allows, is_public, required_role
from kneeboard.config import get_settings

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")  # fmt: skip
DOCS_CSP = ("default-src 'self'; script-src 'self' https://cdn.jsdelivr.net {hashes}; style-src 'self' https://cdn.jsdelivr.net; "
            "img-src 'self' data: https://fastapi.tiangolo.com; object-src 'none'; base-uri 'self'; frame-ancestors 'none'")  # fmt: skip
HEADERS = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)


def _deny(status: int, detail: str, **headers: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, detail: str, **headers: str) -> None:
    """Refuse before the app: a request that may carry a body has it drained first (as a 413 is), so a plain
    client reads the refusal instead of a reset, and the connection is closed."""
    if scope["method"] not in SAFE_METHODS:
        await drain(receive, Headers(scope=scope))
        headers["connection"] = "close"
    await _deny(status, detail, **headers)(scope, receive, send)


def authenticate(scope: Scope) -> Principal | None:
    """The caller from `Authorization: Bearer …` (never falling back to the cookie when that header is sent), else the session cookie."""
    headers = Headers(scope=scope)
    source = scope["client"][0] if scope.get("client") else None
    authorization = headers.get("authorization")
    if authorization is not None:
        scheme, _, secret = authorization.partition(" ")
        return resolve.from_bearer(secret.strip(), source) if scheme.lower() == "bearer" else None
    cookie = cookie_parser(headers.get("cookie", "")).get(resolve.SESSION_COOKIE)
    return resolve.from_cookie(cookie, source) if cookie else None


class AuthMiddleware:
    """Every /api/v1 request but health, login and share reads needs credentials and the role its method asks for."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not (path == API or path.startswith(API + "/")):
            return await self.app(scope, receive, send)
        method = scope["method"]
        if is_public(method, path):
            if method not in SAFE_METHODS and not same_origin(scope, required=False):
                return await _refuse(scope, receive, send, 403, "cross-site request refused (Origin is not this site)")
            return await self.app(scope, receive, send)
        principal = await run_in_threadpool(authenticate, scope)
        if principal is None:
            return await _refuse(scope, receive, send, 401, "not signed in: log in or send Authorization: Bearer <token>", **{"www-authenticate": "Bearer"})
        if principal.via == "session" and method not in SAFE_METHODS and not same_origin(scope):
            return await _refuse(scope, receive, send, 403, "cross-site request refused (Origin or Referer must be this site)")
        needed = required_role(method, path)
        if not allows(principal.role, needed, path):
            if principal.via == "agent":  # an agent's or observer's credential used off its link: audited (who, what)
                what = f"{method} {path}"[:200]
                await run_in_threadpool(record_refusal, principal.actor, "request", None, what, principal.source)
            return await _refuse(scope, receive, send, 403, f"this needs the {needed.value} role; you are {principal.role}")
        scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)


class SecurityHeadersMiddleware:
    """CSP (no inline scripts; /docs allows its own inline script by hash), no framing, nosniff, same-origin referrers."""

    def __init__(self, app: ASGIApp, docs_url: str | None) -> None:
        self.app = app
        self.docs_url = docs_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope.get("path") == self.docs_url:
            return await self._docs(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with_headers(message.get("headers", []), CSP)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Swagger UI: buffer its small page to allow exactly its own inline scripts by hash."""
        start, body = {}, bytearray()

        async def buffer(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            else:
                body.extend(message.get("body", b""))

        await self.app(scope, receive, buffer)
        hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in _INLINE_SCRIPT.findall(body))
        start["headers"] = _with_headers(start.get("headers", []), DOCS_CSP.format(hashes=hashes))
        await send(start)
        await send({"type": "http.response.body", "body": bytes(body)})


def _with_headers(raw: list[tuple[bytes, bytes]], csp: str) -> list[tuple[bytes, bytes]]:
    present = {k.lower() for k, _ in raw}
    extra = {"content-security-policy": csp, **HEADERS}
    return list(raw) + [(k.encode(), v.encode()) for k, v in extra.items() if k.encode() not in present]


def install_security(app: FastAPI) -> None:
    """Add the guard to `app`: headers outermost, then the Host check, then authentication; map 401/403 errors."""
    app.add_middleware(AuthMiddleware)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=get_settings().allowed_host_list())
    app.add_middleware(SecurityHeadersMiddleware, docs_url=app.docs_url)

    @app.exception_handler(Unauthenticated)
    async def _unauthenticated(_request: Request, exc: Unauthenticated) -> JSONResponse:
        return _deny(401, str(exc))

    @app.exception_handler(Forbidden)
    async def _forbidden(_request: Request, exc: Forbidden) -> JSONResponse:
        return _deny(403, str(exc))
