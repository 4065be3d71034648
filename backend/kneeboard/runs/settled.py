"""After a campaign settles: the hooks that other domains register at start (kneeboard/extensions.py) — trends (its
row and the plan's change points), webhooks (who is told), remote write (results out to the team's Prometheus).
runs/execution.py calls `settled` once the campaign's status and analysis are stored; it knows none of them."""

from __future__ import annotations

import logging
from typing import Callable

from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.db import session_scope
from kneeboard.states import CampaignStatus

log = logging.getLogger(__name__)
Hook = Callable[[Campaign, dict, Session], None]  # (the completed campaign, what earlier hooks found, the transaction)
HOOKS: list[Hook] = []  # in one transaction, in registration order (trends puts "change_points" in `found` for webhooks)
AFTER: list[Callable[[int], None]] = []  # after that transaction, each on its own (never raises)


def after_settle(hook: Hook | None = None, *, after: Callable[[int], None] | None = None) -> None:
    """Register a hook on a completed campaign (in the shared transaction), or one `after` it with the campaign's id."""
    for found, hooks in ((hook, HOOKS), (after, AFTER)):
        if found is not None and found not in hooks:
            hooks.append(found)


def settled(campaign_id: int) -> None:
    """Run the hooks; never raises (the campaign is settled whatever happens here: a missing trend row is filled in
    when a trend is read, change points at the next settle)."""
    try:
        with session_scope() as session:
            campaign = session.get(Campaign, campaign_id)
            if campaign is not None and campaign.status == CampaignStatus.COMPLETED:
                found: dict = {}
                for hook in HOOKS:
                    hook(campaign, found, session)
    except Exception:  # noqa: BLE001 - a trend or webhook bug must not touch the settled campaign
        log.exception("a hook after campaign %s settled failed", campaign_id)
    for hook in AFTER:
        hook(campaign_id)
