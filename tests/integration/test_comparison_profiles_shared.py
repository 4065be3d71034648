"""Issue 49 item 4: the comparison's body is one, CPU differential included. A share link of a comparison serves the
differential of two of its points (404 for a point of any other campaign), and both comparison exports (the share's
and the signed-in /compare one) draw it, with the real renderer (node, frontend/dist-export): the minimal CoreDNS (A)
against the one with the `log` plugin (B), real `perf script` captures folded by Kneeboard (tests/support/cpu_profiles)."""

from __future__ import annotations

import secrets

import httpx

from tests.integration.test_cpu_profile_report import frames
from tests.support.cpu_profiles import _store, profiled_campaign

LOG = "github.com/coredns/coredns/plugin/log."  # the plugin only B runs: its cost can only have grown


def _profiled_everywhere(stack, name: str, fixture: str) -> dict:
    """A profiled campaign whose every completed point has `fixture`'s profile (whichever matched load is drawn has one)."""
    campaign = profiled_campaign(stack, name, fixture)
    points = [p for p in stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json() if p["status"] == "completed"]
    for p in points:
        if p["id"] != campaign["profiled"]:
            _store(p["id"], fixture, "coredns")
    return {**campaign, "points": [p["id"] for p in points]}


def test_a_shared_comparison_serves_and_exports_its_cpu_differential(stack):
    a = _profiled_everywhere(stack, f"A minimal {secrets.token_hex(3)}", "coredns-minimal-Q10000")
    b = _profiled_everywhere(stack, f"B log {secrets.token_hex(3)}", "coredns-log_file-Q10000")
    other = profiled_campaign(stack, f"not shared {secrets.token_hex(3)}", "coredns-minimal-Q10000")
    created = stack.api.post("/api/v1/shares", json={"campaign_ids": [a["id"], b["id"]], "expires_in_s": 600})
    assert created.status_code == 201, created.text
    token = created.json()["url"].rsplit("/", 1)[1]
    with httpx.Client(base_url=stack.api_url, timeout=90) as visitor:  # no credentials
        diff = visitor.get(f"/api/v1/shared/{token}/points/{a['profiled']}/cpu-profile/diff/{b['profiled']}", params={"limit": 15})
        assert diff.status_code == 200, diff.text
        body = diff.json()
        assert body["a"]["point_id"] == a["profiled"] and body["b"]["point_id"] == b["profiled"] and len(body["functions"]) == 15
        log = [f for f in body["functions_by_total"] if f["function"].startswith(LOG)]
        assert log and all(f["total_per_1k_change"] > 0 and f["total_per_1k_a"] == 0 for f in log), log
        # the same figures as the signed-in route gives
        assert body == stack.api.get(f"/api/v1/points/{a['profiled']}/cpu-profile/diff/{b['profiled']}", params={"limit": 15}).json()
        for pair in ((a["profiled"], other["profiled"]), (other["profiled"], b["profiled"])):
            assert visitor.get(f"/api/v1/shared/{token}/points/{pair[0]}/cpu-profile/diff/{pair[1]}").status_code == 404, pair
        shared_file = visitor.get(f"/api/v1/shared/{token}/export.html")
    live_file = stack.api.get("/api/v1/compare/export.html", params=[("c", a["id"]), ("c", b["id"])], timeout=90)
    for name, response in (("share", shared_file), ("compare", live_file)):
        assert response.status_code == 200, (name, response.text[:500])
        html = response.text
        assert 'data-testid="comparison-body"' in html and 'data-testid="cpu-profile-diff"' in html, name
        assert any(t.startswith(LOG) for t in frames(html)), name
