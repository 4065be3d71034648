"""Where the server may send a request of its own (a webhook, a Prometheus query or remote write): an allow-list
table per kind (AllowListColumns), empty by default (nowhere), checked on the resolved addresses before each request,
and the request then pinned to the address that was checked. Services never commit."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.orm import Session

from kneeboard.errors import PolicyRefused
from kneeboard.outbound.schemas import AllowList, AllowListOut
from kneeboard.policy.check import check_address
from kneeboard.policy.schemas import Policy

ROW_ID = 1


@dataclass(frozen=True)
class AllowListTable:
    """One allow-list: its table (AllowListColumns, row ROW_ID) and how a refusal names it."""

    model: type
    named: str

    def get(self, *, session: Session) -> AllowListOut:
        """The allow-list in force (empty until an admin sets one)."""
        row = session.get(self.model, ROW_ID)
        return AllowListOut(**row.document, updated_by=row.updated_by, updated_at=row.updated_at) if row else AllowListOut()

    def put(self, body: AllowList, *, actor: str | None, session: Session) -> AllowListOut:
        """Replace the allow-list (destinations already stored are checked again before each request)."""
        row = session.get(self.model, ROW_ID) or self.model(id=ROW_ID, document={})
        row.document, row.updated_by = body.model_dump(mode="json"), actor
        session.add(row)
        session.flush()
        return self.get(session=session)

    def check(self, url: str, *, session: Session, loc: tuple = ("url",)) -> list[str]:
        """The addresses `url`'s host resolves to, all inside the allow-list; PolicyRefused naming `loc` otherwise."""
        allow = self.get(session=session)
        try:
            return check_address(urlsplit(url).hostname or "", Policy(networks=allow.networks, hosts=allow.hosts), loc=loc)
        except PolicyRefused as exc:
            reason = str(exc).split(": not allowed by the", 1)[0]
            raise PolicyRefused(loc, f"{reason}: not in {self.named}") from None


def pinned_target(url: str, address: str) -> tuple[str, dict, dict]:
    """The URL with the checked address in place of the host, the Host header, and the TLS name to verify."""
    parts = urlsplit(url)
    host = f"[{address}]" if ":" in address else address
    netloc = f"{host}:{parts.port}" if parts.port else host
    extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")), {"Host": parts.netloc}, extensions
