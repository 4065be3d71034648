"""A webhook as a point event (`webhook.send`): one POST at the event's time, from the worker, never through the
outbox (whose retry would fire a second failure). The destination is checked against the webhook allow-list just
before, and the connection pinned to the checked address. Registered into the events catalogue at start
(kneeboard/extensions.py)."""

from __future__ import annotations

import time

from kneeboard.db import session_scope
from kneeboard.errors import PolicyRefused
from kneeboard.events.actions import EventAction, EventFailed, register
from kneeboard.webhooks.delivery import post
from kneeboard.webhooks.models import Webhook
from kneeboard.webhooks.service import ALLOWLIST

EVENT = "action"


def fire(webhook_id: int, payload: dict | None = None) -> dict:
    """POST once to webhook `webhook_id` (which must be enabled and subscribed to "action"); what it answered (HTTP
    status). Raises EventFailed when it is gone, refused by the allow-list, or did not answer 2xx (not retried)."""
    with session_scope() as session:
        webhook = session.get(Webhook, webhook_id)
        if webhook is None or not webhook.enabled or EVENT not in (webhook.events or []):
            raise EventFailed(f"webhook {webhook_id} is gone, disabled or not subscribed to \"action\"")
        try:
            address = ALLOWLIST.check(webhook.url, session=session)[0]
        except PolicyRefused as exc:
            raise EventFailed(f"webhook {webhook_id}: {exc}") from exc
        session.expunge(webhook)
    status, error = post(webhook, address, EVENT, f"event-{webhook_id}-{time.time():.6f}",
                         {"event": EVENT, "webhook_id": webhook_id, "sent_at": time.time(), **(payload or {})})
    if error:
        raise EventFailed(f"webhook {webhook_id} answered {error} (sent once, not retried)")
    return {"http_status": status}


def _webhook_id(value: str) -> str | None:
    return None if value.isdigit() and 0 < int(value) < 2**31 else f"{value!r} is not a webhook's id"


def _send(value: str, about: dict | None = None) -> dict:
    return fire(int(value), about)


def _subscribed(event, host: str, session) -> tuple[str, str] | None:  # noqa: ANN001
    """The event's webhook exists, is enabled and subscribed to "action"."""
    hook = session.get(Webhook, int(event.value))
    if hook is None or not hook.enabled or EVENT not in (hook.events or []):
        return "value", f"webhook {event.value} does not exist, is disabled, or is not subscribed to \"action\""
    return None


def register_events() -> None:
    """Put `webhook.send` in the events catalogue."""
    register(EventAction("webhook.send", "POST once to a webhook subscribed to \"action\" (value: its id), never retried", (),
                         _send, check=_webhook_id, admits=_subscribed))
