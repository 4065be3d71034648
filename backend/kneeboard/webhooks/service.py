"""Webhooks: destinations, their allow-list (outbound/allowlist.py), and the messages a settled campaign puts in the outbox.

Messages are written in the transaction that decided them, under a unique key (webhook, event, campaign or
change), so a campaign settled twice, or a change found again, is told once. Services never commit.
"""

from __future__ import annotations

import secrets
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.service import pinned_baseline
from kneeboard.config import get_settings
from kneeboard.errors import DomainError, NotFound, invalid
from kneeboard.gate import baseline_outcome
from kneeboard.plans.service import get_plan
from kneeboard.outbound.allowlist import AllowListTable
from kneeboard.schedules import service as schedules
from kneeboard.trends.models import ChangePoint
from kneeboard.webhooks.models import Webhook, WebhookAllowList, WebhookDelivery
from kneeboard.webhooks.schemas import WebhookCreate

ALLOWLIST_URL = "/api/v1/policy/webhooks"
ALLOWLIST = AllowListTable(WebhookAllowList, f"the webhook allow-list (see {ALLOWLIST_URL})")
MAX_TEXT = 3000  # Slack shows a message's text up to about 4,000 characters


def create(body: WebhookCreate, *, creator: str, session: Session) -> Webhook:
    """Store a webhook whose destination the allow-list takes, for an existing plan or schedule; its secret is new."""
    if body.plan_id is not None:
        get_plan(body.plan_id, session=session)
    else:
        schedules.get(body.schedule_id, session=session)
    ALLOWLIST.check(body.url, session=session)
    webhook = Webhook(**body.model_dump(), secret=secrets.token_urlsafe(32), enabled=True, created_by=creator)
    session.add(webhook)
    session.flush()
    return webhook


def list_all(*, session: Session) -> list[Webhook]:
    """Every webhook, oldest first."""
    return list(session.scalars(select(Webhook).order_by(Webhook.id)))


def delete(webhook_id: int, *, session: Session) -> Webhook:
    """Delete a webhook and its undelivered messages."""
    webhook = session.get(Webhook, webhook_id)
    if webhook is None:
        raise NotFound("webhook", webhook_id)
    session.delete(webhook)
    session.flush()
    return webhook


def deliveries(*, session: Session, webhook_id: int | None, limit: int) -> list[WebhookDelivery]:
    """The newest messages of the outbox (of one webhook when given)."""
    query = select(WebhookDelivery).order_by(WebhookDelivery.id.desc()).limit(limit)
    return list(session.scalars(query.where(WebhookDelivery.webhook_id == webhook_id) if webhook_id else query))


def _link(path: str) -> str:
    return get_settings().public_url.rstrip("/") + path


def _subscribers(campaign: Campaign, event: str, *, session: Session) -> list[Webhook]:
    """The enabled webhooks of the campaign's plan, and of the schedule that launched it, that want `event`."""
    schedule_ids = [int(t.split(":", 1)[1]) for t in campaign.tags or [] if t.startswith("schedule:") and t.split(":", 1)[1].isdigit()]
    query = select(Webhook).where(Webhook.enabled.is_(True))
    found = [w for w in session.scalars(query) if (campaign.plan_id is not None and w.plan_id == campaign.plan_id) or w.schedule_id in schedule_ids]
    return [w for w in found if event in (w.events or [])]


def enqueue(webhook: Webhook, event: str, key: str, payload: dict, *, session: Session) -> WebhookDelivery | None:
    """Put one message in the outbox unless one with the same key is there already (then None)."""
    dedup = f"{webhook.id}:{event}:{key}"[:200]
    if session.scalar(select(WebhookDelivery.id).where(WebhookDelivery.dedup_key == dedup)) is not None:
        return None
    delivery = WebhookDelivery(webhook_id=webhook.id, dedup_key=dedup, event=event, payload=payload, status="pending", attempts=0)
    try:
        with session.begin_nested():
            session.add(delivery)
    except IntegrityError:  # another process put the same message in at the same moment
        return None
    return delivery


def _regression(campaign: Campaign, webhook: Webhook, *, session: Session) -> tuple[int, str] | None:
    """(baseline id, detail) when the campaign is a significant regression against the webhook's baseline."""
    from kneeboard.compare.service import build

    base = pinned_baseline(campaign, session=session)
    if webhook.schedule_id is not None:
        setting = schedules.get(webhook.schedule_id, session=session).baseline
        base = schedules.resolve_baseline(setting, campaign, session=session) if setting else base
    if base is None:
        return None
    try:
        outcome = baseline_outcome(build([str(base), str(campaign.id)], session=session), str(campaign.id))
    except DomainError:
        return None
    return (base, outcome.detail) if outcome.outcome == "regression" else None


def notify(campaign: Campaign, changes: list[ChangePoint], *, session: Session) -> list[WebhookDelivery]:
    """The messages a settled campaign sends: a regression against the pinned baseline, each new change point."""
    queued = []
    for webhook in _subscribers(campaign, "regression", session=session):
        if (found := _regression(campaign, webhook, session=session)) is not None:
            base, detail = found
            text = f"Kneeboard: campaign {campaign.id} ({campaign.name}) regressed against baseline {base}: {detail} {_link(f'/compare?c={base}&c={campaign.id}')}"
            payload = {"text": text[:MAX_TEXT], "event": "regression", "campaign_id": campaign.id, "baseline_campaign_id": base,
                       "plan_id": campaign.plan_id, "detail": detail[:MAX_TEXT], "url": _link(f"/campaigns/{campaign.id}")}  # fmt: skip
            queued.append(enqueue(webhook, "regression", str(campaign.id), payload, session=session))
    for webhook in _subscribers(campaign, "change_point", session=session) if changes else []:
        for change in changes:
            pct = f" ({change.change_pct:+.1f} %)" if change.change_pct is not None else ""
            link = _link(f"/compare?c={change.before_campaign_id}&c={change.after_campaign_id}")
            text = (f"Kneeboard: {change.metric} of plan {campaign.plan_id} changed ({change.direction}) between campaigns "
                    f"{change.before_campaign_id} and {change.after_campaign_id}: {change.mean_before:.4g} → {change.mean_after:.4g}{pct} {link}")  # fmt: skip
            payload = {"text": text[:MAX_TEXT], "event": "change_point", "plan_id": campaign.plan_id, "metric": change.metric,
                       "before_campaign_id": change.before_campaign_id, "after_campaign_id": change.after_campaign_id,
                       "mean_before": change.mean_before, "mean_after": change.mean_after, "diff": change.diff,
                       "ci": [change.ci_low, change.ci_high], "change_pct": change.change_pct, "direction": change.direction,
                       "url": link}  # fmt: skip
            queued.append(enqueue(webhook, "change_point", f"{change.metric}:{change.after_campaign_id}", payload, session=session))
    return [q for q in queued if q is not None]


def settled(campaign: Campaign, found: dict, session: Session) -> None:
    """After a campaign settles (a hook of runs/settled.py, after trends'): its messages in the outbox."""
    notify(campaign, found.get("change_points", []), session=session)


def require_known(webhook_id: int | None, *, session: Session) -> None:
    """A 422 naming webhook_id when it names no webhook."""
    if webhook_id is not None and session.get(Webhook, webhook_id) is None:
        raise invalid(("webhook_id",), f"no webhook {webhook_id}")
