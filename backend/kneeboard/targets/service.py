"""Target operations. Services never commit: the caller owns the transaction."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kneeboard.errors import Conflict, NotFound, invalid
from kneeboard.exporters.schemas import Exporter
from kneeboard.policy.service import check_host
from kneeboard.promql import service as promql
from kneeboard.targets.models import Target
from kneeboard.targets.schemas import TargetCreate, TargetUpdate
from kneeboard.validators import metrics_host


def naming_prometheus(server: str, session: Session) -> list[str]:
    """The targets whose PromQL source is the Prometheus named `server` (asked before that Prometheus is deleted)."""
    return [t.name for t in session.scalars(select(Target)) if (t.prometheus or {}).get("server") == server]


def register_prometheus_users() -> None:
    """Let promql/ refuse to delete a Prometheus a target names (kneeboard/extensions.py, at start)."""
    promql.named_by(naming_prometheus)


def list_targets(*, session: Session, kind: str | None = None) -> list[Target]:
    """All targets (of one kind, if given), by name."""
    query = select(Target).order_by(Target.name)
    return list(session.scalars(query.where(Target.kind == kind) if kind else query))


def get_target(target_id: int, *, session: Session) -> Target:
    """One target, or NotFound."""
    target = session.get(Target, target_id)
    if target is None:
        raise NotFound("target", target_id)
    return target


def _check_name_free(name: str, *, session: Session, own_id: int | None = None) -> None:
    existing = session.scalar(select(Target).where(Target.name == name))
    if existing is not None and existing.id != own_id:
        raise invalid(("name",), f"a target named {name!r} already exists")


def create_target(body: TargetCreate, *, session: Session) -> Target:
    """Store a new target whose host the target policy allows."""
    _check_name_free(body.name, session=session)
    check_host(body.host, loc=("host",), session=session)
    _check_metrics_url(body.metrics_url, session=session)
    _check_exporters(body.exporters, session=session)
    promql.check_source(body.prometheus, session=session)
    target = Target(**body.model_dump())
    session.add(target)
    session.flush()
    return target


def update_target(target_id: int, body: TargetUpdate, *, session: Session) -> Target:
    """Apply the given fields to a target."""
    target = get_target(target_id, session=session)
    changes = body.model_dump(exclude_unset=True)
    for key, value in changes.items():
        if value is None and key not in ("metrics_url", "prometheus", "process"):
            raise invalid((key,), "must not be null")
    if "name" in changes:
        _check_name_free(changes["name"], session=session, own_id=target_id)
    if "host" in changes:
        check_host(changes["host"], loc=("host",), session=session)
    _check_metrics_url(changes.get("metrics_url"), session=session)
    _check_exporters(body.exporters or [], session=session)
    promql.check_source(body.prometheus, session=session)
    for key, value in changes.items():
        setattr(target, key, value)
    session.flush()
    return target


def _check_metrics_url(url: str | None, *, session: Session) -> None:
    """The metrics endpoint's host against the target policy, like the target's own (422 naming `metrics_url`)."""
    if url:
        check_host(metrics_host(url), loc=("metrics_url",), session=session)


def _check_exporters(exporters: list[Exporter], *, session: Session) -> None:
    """Names unique, each pack on one exporter (its series are server.<pack>.*), each URL's host allowed by the policy."""
    owner: dict[str, str] = {}
    for i, exporter in enumerate(exporters):
        if any(other.name == exporter.name for other in exporters[:i]):
            raise invalid(("exporters", i, "name"), f"{exporter.name!r} names another exporter of this target already")
        for j, name in enumerate(exporter.packs):
            if name in owner:
                raise invalid(("exporters", i, "packs", j), f"pack {name!r} reads exporter {owner[name]!r} already; "
                              f"a pack reads one exporter of a target (its series are server.{name}.*)")
            owner[name] = exporter.name
        check_host(metrics_host(exporter.url), loc=("exporters", i, "url"), session=session)


def delete_target(target_id: int, *, session: Session) -> None:
    """Delete a target that no plan uses (the plans' foreign key refuses it otherwise)."""
    target = get_target(target_id, session=session)
    try:
        with session.begin_nested():
            session.delete(target)
            session.flush()
    except IntegrityError:
        raise Conflict(f"target {target_id} is used by a plan; delete the plan first") from None


def ensure_target(body: TargetCreate, *, session: Session) -> Target:
    """The target with this name, created or updated to match (used by `make up` and the lab)."""
    existing = session.scalar(select(Target).where(Target.name == body.name))
    if existing is None:
        return create_target(body, session=session)
    for key, value in body.model_dump().items():
        setattr(existing, key, value)
    session.flush()
    return existing
