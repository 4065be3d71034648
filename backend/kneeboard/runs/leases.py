"""Leases: the agent instance running a campaign holds it, and renews it with every heartbeat while
it is executing that campaign (a run that ended, however it ended, is renewed no more).

A lease that is not renewed for LEASE_S means its holder is gone (killed, host down, cut off from
the database); the reaper then crashes the campaign. Only the holder may run a campaign's points,
so a campaign never runs twice at once.
"""

from __future__ import annotations

import os
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import lru_cache

from sqlalchemy import or_, update
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.config import get_settings
from kneeboard.db import utcnow
from kneeboard.states import CampaignStatus

HELD = (CampaignStatus.STARTING, CampaignStatus.RUNNING, CampaignStatus.CANCELLING)
_executing: set[int] = set()
_executing_lock = threading.Lock()


@contextmanager
def executing(campaign_id: int) -> Iterator[None]:
    """Mark a campaign as being executed by this process for as long as the block runs."""
    with _executing_lock:
        _executing.add(campaign_id)
    try:
        yield
    finally:
        with _executing_lock:
            _executing.discard(campaign_id)


def executing_now() -> frozenset[int]:
    """The campaigns this process is executing at this moment."""
    with _executing_lock:
        return frozenset(_executing)


@lru_cache
def instance_id(agent: str) -> str:
    """This process's identity as a lease holder: agent name, host, pid and a random part."""
    return f"{agent}@{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _expiry(now: datetime) -> datetime:
    return now + timedelta(seconds=get_settings().lease_s)


def claim(campaign_id: int, owner: str, *, session: Session) -> bool:
    """Take a queued campaign's lease, atomically; False when another holder has it or it is not queued."""
    now = utcnow()
    taken = session.execute(
        update(Campaign)
        .where(Campaign.id == campaign_id, Campaign.status == CampaignStatus.QUEUED,
               or_(Campaign.lease_owner.is_(None), Campaign.lease_expires_at.is_(None), Campaign.lease_expires_at < now))
        .values(lease_owner=owner, lease_expires_at=_expiry(now))
    )  # fmt: skip
    return taken.rowcount == 1


def renew(owner: str, *, session: Session) -> int:
    """Extend the leases this holder has on the campaigns it is executing right now; returns how many."""
    ids = executing_now()
    if not ids:
        return 0
    renewed = session.execute(
        update(Campaign).where(Campaign.id.in_(ids), Campaign.lease_owner == owner, Campaign.status.in_(HELD))
        .values(lease_expires_at=_expiry(utcnow()))
    )  # fmt: skip
    return renewed.rowcount


def holds(campaign: Campaign, owner: str) -> bool:
    """Whether `owner` still holds this campaign's lease."""
    return campaign.lease_owner == owner and campaign.status in HELD


def release(campaign: Campaign) -> None:
    """End the lease when the campaign ends (the holder's name stays as a record)."""
    campaign.lease_expires_at = None
