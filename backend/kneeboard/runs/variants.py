"""Variants: environment settings applied through the variant-setting registry (kneeboard/variant_settings.py: the
lab's actions, a server host's through its observer), and the facts taken under each."""

from __future__ import annotations

import os

from kneeboard.campaigns.models import Campaign
from kneeboard.db import session_scope
from kneeboard.environment import collect_facts
from kneeboard.lab import impair, namespace
from kneeboard.observers.process_cpu import where_read
from kneeboard.variant_settings import (SettingFailed, SettingRefused, apply_setting, defaults, facts_taken, for_campaign,
                                        read_setting, restore_setting)


def environment(campaign: Campaign) -> dict:
    """Facts about this host (and the lab's interfaces when the target is in the lab)."""
    tools = [campaign.tool] + [m["kind"] for m in campaign.plan.get("monitors", [])]
    in_lab = campaign.target.get("host") == namespace.LAB_ADDR or any(
        name.startswith("lab.") for v in campaign.plan.get("variants", []) for name in v.get("set", {})
    )  # fmt: skip
    facts = collect_facts(
        interfaces=[namespace.HOST_IF] if in_lab else [],
        netns_interfaces=[(namespace.NETNS, namespace.LAB_IF)] if in_lab else [],
        tools=tools + (["coredns", "adguardhome", "named", "haproxy", "caddy"] if in_lab else []),
        target_host=campaign.target.get("host"),
        lab_address=namespace.LAB_ADDR if os.path.exists(f"/sys/class/net/{namespace.HOST_IF}") else None,  # the lab is here
    )
    if (server_cpu := where_read(campaign.plan, campaign.target)) is not None:  # once here, never on every point
        facts["server.process_cpu"] = server_cpu
    if in_lab:  # the configuration CoreDNS and AdGuard Home really run: whatever a crash left on is seen
        facts["lab.coredns.config"] = read_setting("lab.coredns_config") or "not running"
        facts["lab.coredns_shipped.config"] = read_setting("lab.coredns_shipped_config") or "not running"
        facts["lab.adguard.config"] = read_setting("lab.adguard_config") or "not running"
        facts["lab.haproxy.config"] = read_setting("lab.haproxy_config") or "not running"
        facts["lab.caddy.config"] = read_setting("lab.caddy_config") or "not running"
        facts["lab.bind.config"] = read_setting("lab.bind_config") or "not running"
        facts["lab.link.impairment"] = impair.describe()  # what was in force on the link (none, or loss/rate/delay)
    return facts


def apply_variant(campaign_id: int, label: str | None) -> str | None:
    """Apply a variant's settings and record the facts under it; returns why it failed, or None."""
    if label is None:
        return None
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        variants = campaign.plan.get("variants", [])
        settings, names = next((v["set"] for v in variants if v["label"] == label), {}), {n for v in variants for n in v.get("set", {})}
        settings = {**defaults(names), **settings}  # unset: the default
    applied, error = {}, None
    with for_campaign(campaign_id):
        for name, value in settings.items():
            try:
                applied[name] = apply_setting(name, value)
            except (SettingRefused, SettingFailed) as exc:
                error = f"variant {label!r}: setting {name}={value} could not be applied: {exc}"
                break
        taken = facts_taken(names)  # a server host's, read back by its observer after its settings
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        facts = {**environment(campaign), **taken, **{f"setting.{k}": str(v) for k, v in applied.items()}}
        if error:
            facts["setting.error"] = error
        campaign.environment = {**campaign.environment, "variants": {**campaign.environment.get("variants", {}), label: facts}}
    return error


def lab_settings_before(plan: dict) -> dict[str, int | bool | None]:
    """The lab's current value of every setting the plan's variants change (read before the first variant)."""
    names = sorted({name for variant in plan.get("variants", []) for name in variant.get("set", {})})
    before = {}
    for name in names:
        try:
            before[name] = read_setting(name)
        except (SettingRefused, SettingFailed):
            before[name] = None
    return {**before, **defaults(names)}  # an action with a default goes back to it, whatever a crashed campaign left


def restore(campaign_id: int, before: dict[str, int | bool | None]) -> dict:
    """Put the lab back as it was before the campaign; the outcome goes into the campaign's evidence."""
    if not before:
        return {}
    restored: dict = {}
    for name, value in before.items():
        if value is None:
            restored[name] = "unknown before the campaign: left as the last variant set it"
            continue
        try:
            with for_campaign(campaign_id):
                restored[name] = restore_setting(name, value)
        except (SettingRefused, SettingFailed) as exc:
            restored[name] = f"could not restore {value}: {exc}"
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        campaign.environment = {**campaign.environment, "restored": restored}
    return restored
