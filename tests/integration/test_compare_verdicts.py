"""Comparisons through the API: capacity at SLO leads with its interval; per-point verdicts; unlike tools refused."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"


def _import(stack, name: str, content: bytes) -> dict:
    response = stack.api.post("/api/v1/campaigns/import", files=[("file", (name, content))])
    assert response.status_code == 201, response.text
    return response.json()


def _as_tool(stack, campaign_id: int, tool: str, latency_factor: float = 1.0) -> dict:
    """A Kneeboard JSON export re-imported as another tool, or with its latencies scaled (an honest import)."""
    document = json.loads(stack.api.get(f"/api/v1/campaigns/{campaign_id}/export.json").content)
    document["campaign"]["tool"] = tool
    for point in document["points"]:
        point["metrics"] = {k: (v * latency_factor if k.startswith("latency") and v is not None else v) for k, v in point["metrics"].items()}
    return _import(stack, "campaign.json", json.dumps(document).encode())


def test_capacity_at_slo_leads_and_unlike_tools_are_refused(stack):
    seed = _import(stack, "seed.csv", (DATA / "seed000.csv").read_bytes())
    capacity = seed["analysis"]["capacity"]
    assert capacity["metric"] == "latency_avg_ms" and capacity["limit_ms"] == 3.0
    assert 14_000 < capacity["value"] < 16_000 and capacity["kind"] == "between"
    slower = _as_tool(stack, seed["id"], "dnsperf", latency_factor=2.0)
    compared = stack.api.get("/api/v1/compare", params=[("c", seed["id"]), ("c", slower["id"])])
    assert compared.status_code == 200, compared.text
    body = compared.json()
    assert body["headline"][0]["metric"] == "capacity_at_slo"
    assert body["headline"][0]["values"][str(slower["id"])] < body["headline"][0]["values"][str(seed["id"])]
    overall = body["point_verdicts"][str(slower["id"])]["overall"]["latency_avg_ms"]
    assert overall["verdict"] == "not enough data"  # one run per load: no verdict without repetitions
    wrk = _as_tool(stack, seed["id"], "wrk")
    refused = stack.api.get("/api/v1/compare", params=[("c", seed["id"]), ("c", wrk["id"])])
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["loc"] == ["query", "c"] and "different tools" in refused.json()["detail"][0]["msg"]
