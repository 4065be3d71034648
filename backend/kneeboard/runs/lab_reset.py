"""At a worker's start: lab settings that have a default (CoreDNS's configuration) go back to it when no campaign is
under way and the process that set them is gone, so a worker that died under a variant does not leave that variant's
configuration on (and a worker of another stack sharing the lab does not undo a live campaign's)."""

from __future__ import annotations

import logging

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.lab.actions import ActionError, ActionFailed, apply_setting, defaults, held, list_actions, read_setting
from kneeboard.lab.namespace import status
from kneeboard.states import CampaignStatus

log = logging.getLogger(__name__)
UNDER_WAY = (CampaignStatus.STARTING, CampaignStatus.RUNNING, CampaignStatus.CANCELLING)


def reset_lab_defaults(*, session: Session) -> dict[str, object]:
    """Put every defaulted lab setting that is off its default back to it, unless a campaign (on any agent) is under
    way, the process that set it still runs, or the lab is not up; returns {action: value read back, or why not}."""
    if session.scalar(select(func.count()).select_from(Campaign).where(Campaign.status.in_(UNDER_WAY))):
        return {}
    if not status(probe=False).present:
        return {}
    reset: dict[str, object] = {}
    for name, value in defaults(a["name"] for a in list_actions()).items():
        current = read_setting(name)
        if current is None or current == value or held(name):  # None: its server is not running (`lab up` starts it)
            continue
        try:
            reset[name] = apply_setting(name, value)
            log.warning("lab: %s was %s with no campaign under way; back to its default %s", name, current, value)
        except (ActionError, ActionFailed) as exc:
            reset[name] = f"could not go back to {value}: {exc}"
            log.warning("lab: %s", reset[name])
    return reset
