"""Registered Prometheus servers and their allow-list. Services never commit: the caller owns the transaction.

The allow-list (outbound/allowlist.py) has the webhooks' shape and rules (networks and host names, empty by default: nowhere) in a table of
its own: a Prometheus is never a load target, and a load target is never a Prometheus by the target policy's leave.
A credential comes in once (create or update) and is kept in its row; it leaves only as a request header.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.errors import Conflict, NotFound, invalid
from kneeboard.outbound.allowlist import AllowListTable
from kneeboard.promql.models import PrometheusAllowList, PrometheusServer
from kneeboard.promql.schemas import PrometheusSource, ServerCreate, ServerUpdate, _Credential

ALLOWLIST_URL = "/api/v1/policy/prometheus"
ALLOWLIST = AllowListTable(PrometheusAllowList, f"the Prometheus allow-list (see {ALLOWLIST_URL})")
NAMERS: list[Callable[[str, Session], list[str]]] = []  # what names a Prometheus by name (targets/, registered at start)


def named_by(namers: Callable[[str, Session], list[str]]) -> None:
    """Register `namers(server_name, session)`: the names of what uses that Prometheus; a delete is refused while any
    does (targets register theirs at start, kneeboard/extensions.py: promql/ imports no target)."""
    if namers not in NAMERS:
        NAMERS.append(namers)


def list_all(*, session: Session) -> list[PrometheusServer]:
    """Every registered Prometheus, by name."""
    return list(session.scalars(select(PrometheusServer).order_by(PrometheusServer.name)))


def get(server_id: int, *, session: Session) -> PrometheusServer:
    """One registered Prometheus, or NotFound."""
    server = session.get(PrometheusServer, server_id)
    if server is None:
        raise NotFound("prometheus server", server_id)
    return server


def by_name(name: str, *, session: Session) -> PrometheusServer | None:
    """The registered Prometheus of that name, or None."""
    return session.scalar(select(PrometheusServer).where(PrometheusServer.name == name))


def _take_credential(server: PrometheusServer, body: _Credential) -> None:
    """Keep the credential the body gives (one line of printable characters: it becomes a header)."""
    if body.bearer_token is not None:
        secret, field = body.bearer_token.get_secret_value(), ("bearer_token",)
        server.auth, server.username = "bearer", None
    elif body.basic is not None:
        secret, field = body.basic.password.get_secret_value(), ("basic", "password")
        server.auth, server.username = "basic", body.basic.username
    else:
        return
    if not secret.isprintable() or secret != secret.strip():
        raise invalid(field, "must be one line of printable characters, without leading or trailing spaces")
    server.credential = secret


def create(body: ServerCreate, *, creator: str, session: Session) -> PrometheusServer:
    """Register a Prometheus whose URL the allow-list takes, under a name no other has."""
    if by_name(body.name, session=session) is not None:
        raise invalid(("name",), f"a Prometheus named {body.name!r} is registered already")
    ALLOWLIST.check(body.url, session=session)
    server = PrometheusServer(name=body.name, url=body.url, auth="none", scrape_interval_s=body.scrape_interval_s,
                              remote_write=body.remote_write, created_by=creator)
    _take_credential(server, body)
    session.add(server)
    session.flush()
    return server


def update(server_id: int, body: ServerUpdate, *, session: Session) -> PrometheusServer:
    """Change a registered Prometheus: its URL (checked again), scrape interval, credential (replaced or removed)."""
    server = get(server_id, session=session)
    if body.url is not None:
        ALLOWLIST.check(body.url, session=session)
        server.url = body.url
    if body.scrape_interval_s is not None:
        server.scrape_interval_s = body.scrape_interval_s
    if body.remote_write is not None:
        server.remote_write = body.remote_write
    if body.remove_credential:
        server.auth, server.username, server.credential = "none", None, None
    _take_credential(server, body)
    session.flush()
    return server


def delete(server_id: int, *, session: Session) -> PrometheusServer:
    """Forget a Prometheus no target names."""
    server = get(server_id, session=session)
    users = [name for namers in NAMERS for name in namers(server.name, session)]
    if users:
        raise Conflict(f"Prometheus {server.name!r} is named by target(s) {', '.join(users[:5])}; change them first")
    session.delete(server)
    session.flush()
    return server


def audit_details(server: PrometheusServer) -> dict:
    """What the audit log keeps of a server: never its credential, only whether there is one and its kind."""
    return {"url": server.url, "auth": server.auth, "username": server.username, "scrape_interval_s": server.scrape_interval_s,
            "remote_write": server.remote_write}


def check_source(source: PrometheusSource | None, *, session: Session, loc: tuple = ("prometheus",)) -> None:
    """A target's PromQL source names a registered Prometheus (a 422 on `prometheus.server` naming those there are)."""
    if source is not None and by_name(source.server, session=session) is None:
        known = ", ".join(s.name for s in list_all(session=session)) or "none yet (an admin registers them: POST /api/v1/prometheus)"
        raise invalid((*loc, "server"), f"no Prometheus named {source.server!r} is registered; registered: {known}")


def authorization(server: PrometheusServer) -> dict[str, str]:
    """The request header carrying the server's credential ({} without one). Only the PromQL client calls this."""
    if server.auth == "bearer" and server.credential:
        return {"Authorization": f"Bearer {server.credential}"}
    if server.auth == "basic" and server.credential:
        pair = f"{server.username}:{server.credential}".encode()
        return {"Authorization": "Basic " + base64.b64encode(pair).decode()}
    return {}
