"""After a campaign settles (a hook of runs/settled.py, registered in kneeboard/extensions.py): its trend row and its
plan's change points found again; the new ones are left in `found` for the hooks after it (webhooks)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.trends.changes import refresh
from kneeboard.trends.service import Scope, record


def settled(campaign: Campaign, found: dict, session: Session) -> None:
    """Keep the completed campaign's trend row; its plan's new change points in found["change_points"]."""
    record(campaign, session=session)
    found["change_points"] = refresh(Scope(plan_id=campaign.plan_id), session=session) if campaign.plan_id is not None else []
