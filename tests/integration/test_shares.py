"""Share links: read-only, no login, bound to exactly their campaigns, pinned, revocable, expiring, audited."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.integration.test_campaign_run import wait_status

SEED = Path(__file__).resolve().parents[1] / "unit" / "data" / "seed000.csv"
DAY = 86_400


@pytest.fixture()
def anonymous(stack):
    """A fresh client with no credentials at all."""
    with httpx.Client(base_url=stack.api_url, timeout=30) as client:
        yield client


def imported(stack, name: str | None = None) -> dict:
    """A finished, analysed campaign from the seed CSV (no samples)."""
    files = [("file", ("seed.csv", SEED.read_bytes()))]
    answer = stack.api.post("/api/v1/campaigns/import", files=files, data={"name": name or f"shared-{uuid.uuid4().hex[:6]}"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def measured(stack, target: dict) -> dict:
    """A real two-point dnsperf campaign whose stability point keeps per-second samples."""
    plan = {"name": f"share-{uuid.uuid4().hex[:6]}", "tool": "dnsperf", "target_id": target["id"],
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 2}, "pause_s": 0, "repeat": 1,
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1},
                       {"kind": "stability", "concurrency": 1, "rate": 200, "duration_s": 3}]}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    launched = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id})
    assert launched.status_code == 202, launched.text
    campaign = wait_status(stack.api, launched.json()["id"], {"completed", "failed", "crashed"}, timeout_s=90)
    assert campaign["status"] == "completed", campaign
    return campaign


def share(stack, campaign_id: int, expires_in_s: int = DAY) -> tuple[dict, str]:
    """A new link to one campaign: (the answer, its token)."""
    answer = stack.api.post(f"/api/v1/campaigns/{campaign_id}/shares", json={"expires_in_s": expires_in_s})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body, body["url"].rsplit("/s/", 1)[1]


def test_a_share_opens_the_report_without_login_and_nothing_else(stack, dns_target, anonymous):
    campaign = measured(stack, dns_target)
    other = imported(stack)
    created, token = share(stack, campaign["id"])
    assert set(created) == {"id", "url", "expires_at"} and created["url"].startswith(stack.api_url + "/s/")
    assert len(token) >= 43  # 256 random bits, URL-safe

    report = anonymous.get(f"/api/v1/shared/{token}")
    assert report.status_code == 200, report.text
    body = report.json()
    assert body["kind"] == "campaign" and body["campaign"]["id"] == campaign["id"] and body["comparison"] is None
    assert body["campaign"]["analysis"] == campaign["analysis"] and body["newer_analysis_available"] is False
    own_points = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    assert [p["id"] for p in body["points"]] == [p["id"] for p in own_points]
    assert [t["name"] for t in body["tools"]] == ["dnsperf"] and body["tools"][0]["metrics"]

    stability = own_points[-1]["id"]
    samples = anonymous.get(f"/api/v1/shared/{token}/points/{stability}/samples", params={"series": "point"})
    assert samples.status_code == 200 and samples.json()["samples"], samples.text
    other_point = stack.api.get(f"/api/v1/campaigns/{other['id']}/points").json()[0]["id"]
    assert anonymous.get(f"/api/v1/shared/{token}/points/{other_point}/samples").status_code == 404
    assert anonymous.get(f"/api/v1/shared/{token}/points/999999999/samples").status_code == 404
    edited = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert anonymous.get(f"/api/v1/shared/{edited}").status_code == 404
    assert anonymous.get(f"/api/v1/shared/{token}x").status_code == 404

    # not a credential for anything else, and nothing under /shared writes
    bearer = {"Authorization": f"Bearer {token}"}
    assert anonymous.get(f"/api/v1/campaigns/{campaign['id']}", headers=bearer).status_code == 401
    assert anonymous.post(f"/api/v1/campaigns/{campaign['id']}/shares", json={"expires_in_s": 60}, headers=bearer).status_code == 401
    assert anonymous.delete(f"/api/v1/shares/{created['id']}", headers=bearer).status_code == 401
    assert anonymous.delete(f"/api/v1/campaigns/{campaign['id']}", headers=bearer).status_code == 401
    assert anonymous.post(f"/api/v1/shared/{token}", json={}).status_code == 405
    assert anonymous.delete(f"/api/v1/shared/{token}").status_code == 405
    assert anonymous.get("/api/v1/shares").status_code == 401

    listed = stack.api.get("/api/v1/shares", params={"campaign_id": campaign["id"]})
    assert listed.status_code == 200 and token not in listed.text
    assert [(s["id"], s["kind"], s["campaign_ids"], s["expired"]) for s in listed.json()] == [(created["id"], "campaign", [campaign["id"]], False)]

    # pinned: a new analysis does not change what the link shows, and the link says there is one
    assert stack.api.post(f"/api/v1/campaigns/{campaign['id']}/analysis", json={"k": 1.5, "green_ms": 0.01, "yellow_ms": 0.02}).status_code == 200
    again = anonymous.get(f"/api/v1/shared/{token}").json()
    assert again["campaign"]["analysis"] == campaign["analysis"] and again["newer_analysis_available"] is True

    assert stack.api.delete(f"/api/v1/shares/{created['id']}").status_code == 204
    assert anonymous.get(f"/api/v1/shared/{token}").status_code in {404, 410}
    assert anonymous.get(f"/api/v1/shared/{token}/points/{stability}/samples").status_code in {404, 410}
    assert stack.api.delete(f"/api/v1/shares/{created['id']}").status_code == 404
    assert stack.api.get("/api/v1/shares", params={"campaign_id": campaign["id"]}).json() == []

    audit = stack.api.get("/api/v1/audit", params={"kind": "share", "limit": 50}).json()["items"]
    mine = [(e["action"], e["actor"], e["name"]) for e in audit if e["obj_id"] == str(created["id"])]
    assert mine == [("revoke", "token:KB_ADMIN_TOKEN", campaign["name"]), ("share", "token:KB_ADMIN_TOKEN", campaign["name"])]


def test_a_comparison_share_is_bound_to_its_campaigns(stack, anonymous):
    first, second, third = imported(stack), imported(stack), imported(stack)
    answer = stack.api.post("/api/v1/shares", json={"campaign_ids": [first["id"], second["id"]], "expires_in_s": 3600})
    assert answer.status_code == 201, answer.text
    token = answer.json()["url"].rsplit("/s/", 1)[1]
    body = anonymous.get(f"/api/v1/shared/{token}").json()
    expected = stack.api.get("/api/v1/compare", params={"c": [first["id"], second["id"]]}).json()
    assert body["kind"] == "comparison" and body["campaign"] is None
    assert body["comparison"]["selectors"] == expected["selectors"] == [str(first["id"]), str(second["id"])]
    assert body["comparison"]["headline"] == expected["headline"]
    assert set(body["analysis_versions"]) == {str(first["id"]), str(second["id"])}
    third_point = stack.api.get(f"/api/v1/campaigns/{third['id']}/points").json()[0]["id"]
    assert anonymous.get(f"/api/v1/shared/{token}/points/{third_point}/samples").status_code == 404
    first_point = stack.api.get(f"/api/v1/campaigns/{first['id']}/points").json()[0]["id"]
    assert anonymous.get(f"/api/v1/shared/{token}/points/{first_point}/samples").status_code == 200
    assert anonymous.get(f"/api/v1/shared/{token}", params={"c": third["id"]}).json()["comparison"]["selectors"] == expected["selectors"]
    listed = stack.api.get("/api/v1/shares", params={"campaign_id": [first["id"], second["id"]]}).json()
    assert [s["kind"] for s in listed] == ["comparison"]

    refused = {
        "one campaign": {"campaign_ids": [first["id"]], "expires_in_s": 60},
        "eleven": {"campaign_ids": list(range(1, 12)), "expires_in_s": 60},
        "missing": {"campaign_ids": [first["id"], 999_999_999], "expires_in_s": 60},
        "twice": {"campaign_ids": [first["id"], first["id"]], "expires_in_s": 60},
        "huge id": {"campaign_ids": [first["id"], 2**63], "expires_in_s": 60},
        "no expiry": {"campaign_ids": [first["id"], second["id"]], "expires_in_s": 0},
        "over 90 days": {"campaign_ids": [first["id"], second["id"]], "expires_in_s": 90 * DAY + 1},
        "extra field": {"campaign_ids": [first["id"], second["id"]], "expires_in_s": 60, "token": "mine"},
    }
    for why, bad in refused.items():
        assert stack.api.post("/api/v1/shares", json=bad).status_code == 422, why
    assert stack.api.post("/api/v1/campaigns/999999999/shares", json={"expires_in_s": 60}).status_code == 404
    assert stack.api.post(f"/api/v1/campaigns/{first['id']}/shares", json={"expires_in_s": 90 * DAY}).status_code == 201


def test_an_expired_share_answers_410(stack, anonymous):
    _, token = share(stack, imported(stack)["id"], expires_in_s=1)
    time.sleep(1.5)
    gone = anonymous.get(f"/api/v1/shared/{token}")
    assert gone.status_code == 410 and "expired" in gone.json()["detail"]


def test_a_share_of_a_deleted_campaign_answers_410(stack, anonymous):
    kept, dropped = imported(stack), imported(stack)
    _, single = share(stack, dropped["id"])
    pair = stack.api.post("/api/v1/shares", json={"campaign_ids": [kept["id"], dropped["id"]], "expires_in_s": 600}).json()
    assert stack.api.delete(f"/api/v1/campaigns/{dropped['id']}").status_code == 204
    assert anonymous.get(f"/api/v1/shared/{single}").status_code == 410
    assert anonymous.get(f"/api/v1/shared/{pair['url'].rsplit('/s/', 1)[1]}").status_code == 410
    listed = stack.api.get("/api/v1/shares", params={"campaign_id": kept["id"]}).json()
    assert listed[0]["campaign_ids"] == [kept["id"], None]
