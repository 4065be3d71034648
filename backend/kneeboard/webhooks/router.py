"""Webhook routes: /api/v1/webhooks (operators), the allow-list at /api/v1/policy/webhooks (admins write)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Response

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser, require
from kneeboard.deps import SessionDep
from kneeboard.inputs import MAX_ID
from kneeboard.webhooks import service
from kneeboard.outbound.schemas import AllowList, AllowListOut
from kneeboard.webhooks.schemas import DeliveryOut, WebhookCreate, WebhookCreated, WebhookOut

router = APIRouter(tags=["webhooks"])


@router.get("/webhooks", response_model=list[WebhookOut])
def list_webhooks(session: SessionDep):
    """Every webhook (secrets are never shown again)."""
    return service.list_all(session=session)


@router.post("/webhooks", response_model=WebhookCreated, status_code=201)
def create_webhook(session: SessionDep, body: WebhookCreate, user: CurrentUser):
    """Tell a URL the allow-list takes about a plan's or a schedule's regressions and change points; the secret is shown once."""
    webhook = service.create(body, creator=user.username, session=session)
    record_by(session, user, "create", "webhook", webhook.id, webhook.url[:200], {"plan_id": webhook.plan_id, "schedule_id": webhook.schedule_id,
                                                                               "events": webhook.events})  # fmt: skip
    return webhook


@router.delete("/webhooks/{webhook_id}", status_code=204)
def delete_webhook(session: SessionDep, webhook_id: int, user: CurrentUser):
    """Delete a webhook and its undelivered messages."""
    webhook = service.delete(webhook_id, session=session)
    record_by(session, user, "delete", "webhook", webhook_id, webhook.url[:200])
    return Response(status_code=204)


@router.get("/webhooks/deliveries", response_model=list[DeliveryOut])
def list_deliveries(session: SessionDep, webhook_id: int | None = Query(default=None, ge=1, le=MAX_ID),
                    limit: int = Query(default=50, ge=1, le=500)):  # fmt: skip
    """The newest messages of the outbox, with their attempts and last answer."""
    service.require_known(webhook_id, session=session)
    return service.deliveries(session=session, webhook_id=webhook_id, limit=limit)


@router.get("/policy/webhooks", response_model=AllowListOut)
def get_allowlist(session: SessionDep):
    """Where webhooks may go (separate from the target policy; empty by default)."""
    return service.ALLOWLIST.get(session=session)


@router.put("/policy/webhooks", response_model=AllowListOut, dependencies=[Depends(require("admin"))])
def put_allowlist(body: AllowList, session: SessionDep, user: CurrentUser):
    """Replace the webhook allow-list (admins only); the audit log keeps it before and after."""
    before = service.ALLOWLIST.get(session=session).model_dump(mode="json")
    after = service.ALLOWLIST.put(body, actor=user.actor, session=session)
    record_by(session, user, "update", "policy", "webhooks", "webhook allow-list", {"before": before, "after": after.model_dump(mode="json")})
    return after
