"""Where the server may send a request of its own (a webhook, a Prometheus query or remote write): an allow-list
table per kind (AllowListColumns), empty by default (nowhere), checked on the resolved addresses before each request,
and the request then pinned to the address that was checked. Services never commit."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.orm import Session

from kneeboard.errors import PolicyRefused
from kneeboard.outbound.schemas import AllowList, AllowListOut
from kneeboard.policy.check import check_address
from kneeboard.policy.schemas import Policy

ROW_ID = 1


def get_allowlist(*, session: Session, model: type) -> AllowListOut:
    """The allow-list in force in `model`'s table (empty until an admin sets one)."""
    row = session.get(model, ROW_ID)
    return AllowListOut(**row.document, updated_by=row.updated_by, updated_at=row.updated_at) if row else AllowListOut()


def put_allowlist(body: AllowList, *, actor: str | None, session: Session, model: type) -> AllowListOut:
    """Replace `model`'s allow-list (destinations already stored are checked again before each request)."""
    row = session.get(model, ROW_ID) or model(id=ROW_ID, document={})
    row.document, row.updated_by = body.model_dump(mode="json"), actor
    session.add(row)
    session.flush()
    return get_allowlist(session=session, model=model)


def check_destination(url: str, *, session: Session, model: type, named: str, loc: tuple = ("url",)) -> list[str]:
    """The addresses `url`'s host resolves to, all inside `model`'s allow-list (called `named` in a refusal);
    PolicyRefused naming `loc` otherwise."""
    allow = get_allowlist(session=session, model=model)
    try:
        return check_address(urlsplit(url).hostname or "", Policy(networks=allow.networks, hosts=allow.hosts), loc=loc)
    except PolicyRefused as exc:
        reason = str(exc).split(": not allowed by the", 1)[0]
        raise PolicyRefused(loc, f"{reason}: not in {named}") from None


def pinned_target(url: str, address: str) -> tuple[str, dict, dict]:
    """The URL with the checked address in place of the host, the Host header, and the TLS name to verify."""
    parts = urlsplit(url)
    host = f"[{address}]" if ":" in address else address
    netloc = f"{host}:{parts.port}" if parts.port else host
    extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")), {"Host": parts.netloc}, extensions
