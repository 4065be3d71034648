"""Launching a plan on the suite's real worker and waiting for its campaign to end."""

from __future__ import annotations

from tests.integration.test_campaign_run import wait_status


def launch(stack, plan: dict) -> int:
    """Store `plan` and launch it on the suite's worker; the campaign's id."""
    created = stack.api.post("/api/v1/plans", json=plan)
    assert created.status_code == 201, created.text
    launched = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]})
    assert launched.status_code == 202, launched.text
    return launched.json()["id"]


def launch_and_wait(stack, plan: dict, timeout_s: float = 90) -> tuple[dict, list[dict]]:
    """Store `plan`, launch it, wait until its campaign ends; the campaign and its points."""
    campaign = wait_status(stack.api, launch(stack, plan), {"completed", "failed", "cancelled", "crashed"}, timeout_s)
    return campaign, stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
