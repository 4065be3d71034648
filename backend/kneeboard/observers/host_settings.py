"""The `host.` variant settings (issue 51): a plan's variant sets `host.channels`, `host.rps` or `host.gro` on the
server's host, and the campaign's observer (the plan's process monitor's observer, or cpu_profile.observer) applies
it before the variant's points, as its own actions file allows (observers/nic.py), reads it back and reports the
host's facts; the campaign puts it back at its end (on cancel too). Registered at start (kneeboard/extensions.py)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select

from kneeboard.campaigns.models import Campaign, Point
from kneeboard.db import session_scope
from kneeboard.states import PointStatus
from kneeboard.observers import service as observing
from kneeboard.observers.nic import SETTINGS, HostSettingRefused, typed
from kneeboard.observers.process_cpu import observer_of
from kneeboard.variant_settings import CAMPAIGN, SettingFailed, SettingProvider, SettingRefused, register

WHAT = "host settings"
SETTLE_WINDOW_S = 40.0  # an assignment's window: the file's settle time is at most 30 s a setting
FOUND = "as found (kept by the observer)"  # the value before the campaign: the observer remembers it itself
_facts: dict[int, dict[str, str]] = {}  # campaign → the facts its observer read after the last settings


def validate(name: str, value: Any) -> Any:
    """A host setting's typed value (SettingRefused otherwise); what the server's host allows its observer checks."""
    try:
        return typed(name, value)
    except HostSettingRefused as exc:
        raise SettingRefused("set", f"{name}: {exc}") from exc


def _where(campaign_id: int | None) -> tuple[str, int]:
    """The campaign's observer and a point of it to hang the assignment on (its first not yet measured)."""
    if campaign_id is None:
        raise SettingFailed("a host setting is applied within a campaign (its observer does it)")
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        observer = observer_of(campaign.plan, campaign.target)
        point_id = session.scalar(select(Point.id).where(Point.campaign_id == campaign_id).order_by(
            (Point.status != PointStatus.PENDING), Point.id).limit(1))
    if observer is None:
        raise SettingFailed("no observer on the server's host: a plan setting host.* names one (its process monitor's "
                            "observer, or cpu_profile.observer)")
    return observer, point_id


def _ask(settings: dict[str, Any]) -> dict:
    """Have the campaign's observer apply `settings` (None: put back) and read the facts; its report's host body."""
    campaign_id = CAMPAIGN.get()
    observer, point_id = _where(campaign_id)
    assignment, warnings = observing.assign(point_id, observer, 0.0, SETTLE_WINDOW_S, what=WHAT, settings=settings)
    if assignment is None or warnings:
        raise SettingFailed("; ".join(warnings))
    report, why = observing.await_report(assignment, time.time(), whole_window=False)
    if report is None or report.host is None:
        raise SettingFailed(f"{WHAT}: {why or (report.error if report else None)}")
    _facts[campaign_id] = report.host.facts
    if report.host.refused:
        raise SettingRefused("set", f"observer {observer} refused it: {report.host.refused}")
    return report.host.model_dump()


def apply(name: str, value: Any) -> Any:
    """Apply one host setting through the observer; the value it read back after the settle time."""
    done = _ask({name: validate(name, value)})["applied"]
    return done[-1]["read_back"] if done else None


def restore(name: str, _before: Any) -> Any:
    """Have the observer put back what it found before it changed `name` (it keeps that value itself)."""
    done = _ask({name: None})["applied"]
    _facts.pop(CAMPAIGN.get(), None)  # read at the put-back: no variant's facts, kept no longer
    return next((d.get("error") or d["read_back"] for d in done), "unchanged")


def facts(_names: list[str]) -> dict[str, str]:
    """The server host's facts its observer read after the variant's host settings; for a variant setting none, read
    now (the facts-only assignment); nothing when the observer could not be asked (the variant says why, if it failed)."""
    if (campaign_id := CAMPAIGN.get()) is None:
        return {}
    if campaign_id not in _facts:
        try:
            _ask({})
        except (SettingFailed, SettingRefused):
            return {}
    return _facts.pop(campaign_id, {})


def register_settings() -> None:
    """Register the `host.` provider in the variant-setting registry."""
    register(SettingProvider("host.", names=lambda: list(SETTINGS), validate=validate, apply=apply,
                             read=lambda name: FOUND, restore=restore, facts=facts))
