"""Sending the outbox: a loop in the API process posts each due message, signed, to the address the allow-list
checked (resolved once, connected to directly); redirects are not followed, answers and time are bounded.

A message is claimed (moved to `sending`, with a lease) in a short transaction before it is sent, so several API
processes never send it twice at once and no transaction is held open over the network. A 2xx delivers it;
a 5xx, 408, 429 or a network error retries it after WEBHOOK_RETRY_BASE_S doubled each time (at most an hour)
until WEBHOOK_MAX_ATTEMPTS; anything else (a redirect, another 4xx, a destination now refused) fails it at once.
Each delivered or failed message is in the audit log.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from datetime import timedelta

import httpx
from sqlalchemy import or_, select

from kneeboard.audit.service import record
from kneeboard.config import get_settings
from kneeboard.db import session_scope, utcnow
from kneeboard.errors import PolicyRefused
from kneeboard.outbound.allowlist import pinned_target
from kneeboard.webhooks.models import Webhook, WebhookDelivery
from kneeboard.webhooks.service import ALLOWLIST

log = logging.getLogger(__name__)
BATCH = 20
LEASE_S = 60.0  # a claimed message another process may take again after this (its sender died)
MAX_ANSWER_BYTES = 4096
MAX_BACKOFF_S = 3600.0
RETRYABLE = {408, 429}
SIGNATURE_HEADER = "X-Kneeboard-Signature"


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """`sha256=` and the hex HMAC-SHA256 of "timestamp." + body under the webhook's secret."""
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def backoff_s(attempts: int) -> float:
    """The wait before the next attempt after `attempts` failed ones."""
    return min(MAX_BACKOFF_S, get_settings().webhook_retry_base_s * 2 ** max(0, attempts - 1))


def _claim(limit: int) -> list[int]:
    """Ids of due messages, each moved to `sending` with a lease (rows locked and skipped by others on Postgres)."""
    now = utcnow()
    with session_scope() as session:
        due = (select(WebhookDelivery).where(or_(WebhookDelivery.status == "pending", WebhookDelivery.status == "sending"),
                                             WebhookDelivery.next_attempt_at <= now)
               .order_by(WebhookDelivery.next_attempt_at).limit(limit).with_for_update(skip_locked=True))  # fmt: skip
        rows = list(session.scalars(due))
        for row in rows:
            row.status, row.next_attempt_at = "sending", now + timedelta(seconds=LEASE_S)
        return [row.id for row in rows]


def _post(webhook: Webhook, delivery: WebhookDelivery, address: str) -> tuple[int | None, str | None]:
    """POST the message; (HTTP status, error) — status None when no answer came."""
    return post(webhook, address, delivery.event, str(delivery.id), delivery.payload)


def post(webhook: Webhook, address: str, event: str, delivery: str, payload: dict) -> tuple[int | None, str | None]:
    """POST `payload` once to the webhook at its checked `address` (pinned, signed, no redirects, answer and time
    bounded); (HTTP status, error): status None when no answer came, error None on a 2xx."""
    body = json.dumps(payload, separators=(",", ":"), default=str).encode()
    timestamp = str(int(time.time()))
    url, headers, extensions = pinned_target(webhook.url, address)
    headers.update({"Content-Type": "application/json", "User-Agent": "Kneeboard-Webhook/1", "X-Kneeboard-Event": event,
                    "X-Kneeboard-Delivery": delivery, "X-Kneeboard-Timestamp": timestamp,
                    SIGNATURE_HEADER: sign(webhook.secret, timestamp, body)})  # fmt: skip
    timeout = get_settings().webhook_timeout_s
    try:
        with httpx.Client(follow_redirects=False, timeout=timeout, trust_env=False) as client:
            with client.stream("POST", url, content=body, headers=headers, extensions=extensions) as answer:
                read = 0
                for chunk in answer.iter_bytes():
                    read += len(chunk)
                    if read >= MAX_ANSWER_BYTES:
                        break
                return answer.status_code, None if answer.is_success else f"HTTP {answer.status_code}"
    except httpx.HTTPError as exc:
        return None, f"{type(exc).__name__}: {str(exc)[:200]}"


def _settle(delivery: WebhookDelivery, webhook: Webhook, status: int | None, error: str | None, *, session, refused: bool = False) -> None:
    """Count the attempt: delivered, pending again after the backoff, or failed (then, and when delivered, audited)."""
    delivery.attempts += 1
    delivery.last_status, delivery.last_error = status, error
    retry = not refused and (status is None or status >= 500 or status in RETRYABLE)
    if error is None:
        delivery.status, delivery.delivered_at = "delivered", utcnow()
    elif retry and delivery.attempts < get_settings().webhook_max_attempts:
        delivery.status, delivery.next_attempt_at = "pending", utcnow() + timedelta(seconds=backoff_s(delivery.attempts))
        return
    else:
        delivery.status = "failed"
    record(session, "webhooks", delivery.status, "webhook", webhook.id, webhook.url[:200], None,
           {"delivery": delivery.id, "event": delivery.event, "attempts": delivery.attempts, "status": status, "error": error})


def _send(delivery_id: int) -> str:
    """Send one claimed message and record what happened; its new status."""
    with session_scope() as session:
        delivery = session.get(WebhookDelivery, delivery_id)
        webhook = session.get(Webhook, delivery.webhook_id) if delivery else None
        if delivery is None or webhook is None:
            return "gone"
        try:
            address = ALLOWLIST.check(webhook.url, session=session)[0]
        except PolicyRefused as exc:
            _settle(delivery, webhook, None, str(exc)[:500], session=session, refused=True)
            return delivery.status
        session.expunge_all()
    status, error = _post(webhook, delivery, address)
    with session_scope() as session:
        delivery, webhook = session.merge(delivery), session.merge(webhook)
        _settle(delivery, webhook, status, error, session=session)
        return delivery.status


def deliver_once(limit: int = BATCH) -> dict[int, str]:
    """Send what is due now; {delivery id: its status after this pass}."""
    return {delivery_id: _send(delivery_id) for delivery_id in _claim(limit)}


def _loop(stop: threading.Event) -> None:
    while not stop.wait(get_settings().webhook_poll_s):
        try:
            deliver_once()
        except Exception as exc:  # noqa: BLE001 - the database may be away; the next pass tries again
            log.warning("webhook delivery pass failed: %s", exc)


def start() -> threading.Event:
    """Run the delivery loop in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=_loop, args=(stop,), name="webhooks", daemon=True).start()
    return stop


def with_delivery(inner):
    """A FastAPI lifespan that runs the delivery loop beside `inner` (the reaper's) for as long as the API runs."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app):
        stop = start()
        try:
            async with inner(app):
                yield
        finally:
            stop.set()

    return lifespan
