"""Capacity said as what it is, on the report and on a share page (tests/e2e/bounds.mjs, Chromium): a lower bound
("≥ 4,000 qps" — the SLO held at every load tested), an upper bound ("< 500 qps" — missed at the lowest load) and the
capacity a search found, shown the same signed in and through a link opened signed out, and in the link's HTML file.

The campaigns are imported as Kneeboard JSON exports built here; the search's trials are those the search algorithm asks
for against a server refusing what exceeds 600 req/s, so the report replays a real search."""

from __future__ import annotations

import html
import json
import secrets
from urllib.parse import urlsplit

from kneeboard.search.algorithm import Criterion, SearchConfig, run
from tests.support.browser import require_browser, run_node_script


def _dns_metrics(rate: float, p99_ms: float) -> dict:
    """A dnsperf point that kept up with `rate`, its p99 `p99_ms`."""
    sent = round(rate * 2)
    return {"achieved_rate": rate, "latency_avg_ms": p99_ms / 3, "latency_p50_ms": p99_ms / 4, "latency_p99_ms": p99_ms,
            "sent": sent, "completed": sent, "lost": 0, "loss_pct": 0.0}  # fmt: skip


def sweep_document(name: str, p99_ms: float) -> dict:
    """A dnsperf sweep of 500…4,000 q/s whose p99 is `p99_ms` at every load (the SLO is the default p99 ≤ 3 ms)."""
    rates = (500.0, 1000.0, 2000.0, 4000.0)
    points = [{"seq": i, "phase": "saturation", "concurrency": 10, "offered_rate": r, "duration_s": 2.0, "repeat": 0,
               "metrics": _dns_metrics(r, p99_ms)} for i, r in enumerate(rates)]  # fmt: skip
    plan = {"name": name, "tool": "dnsperf", "target_id": None, "params": {"names": ["www.example.lab"], "qtype": "A"}, "pause_s": 0,
            "phases": [{"kind": "saturation", "concurrency": 10, "rate": {"start": 500, "stop": 4000, "step": 500}, "duration_s": 2}]}  # fmt: skip
    return _export(name, "dnsperf", plan, points, {"name": "bounds-dns", "kind": "dns", "host": "127.0.0.1", "port": 53})


SEARCH_PHASE = {"kind": "search", "concurrency": 800, "low": 200, "high": 1000, "resolution_pct": 2, "duration_s": 2,
                "criteria": [{"metric": "loss_pct", "limit": 2}]}  # fmt: skip


def search_document(name: str, capacity: float) -> dict:
    """A kbhttp search of 200…1,000 req/s for loss ≤ 2 % against a server that refuses what exceeds `capacity`."""
    config = SearchConfig(low=200, high=1000, criteria=(Criterion("loss_pct", 2),), resolution_pct=2, max_duration_s=2)

    def serve(trial) -> dict:
        sent = round(trial.rate * trial.duration_s)
        refused = round(max(0.0, 1 - capacity / trial.rate) * sent)
        return {"achieved_rate": trial.rate, "sent": sent, "completed": sent, "errors": refused, "dropped": 0}

    _, trials = run(config, serve)
    points = [{"seq": i, "phase": "search", "concurrency": 800, "offered_rate": t.rate, "duration_s": t.duration_s, "repeat": 0,
               "metrics": result} for i, (t, result) in enumerate(trials)]  # fmt: skip
    plan = {"name": name, "tool": "kbhttp", "target_id": None, "params": {"path": "/"}, "pause_s": 0, "phases": [SEARCH_PHASE]}
    return _export(name, "kbhttp", plan, points, {"name": "bounds-http", "kind": "http", "host": "127.0.0.1", "port": 8080})


def _export(name: str, tool: str, plan: dict, points: list[dict], target: dict) -> dict:
    head = {"name": name, "tool": tool, "agent": "local", "tags": ["bounds"], "plan": plan, "environment": {}, "target": {**target, "tags": []}}
    return {"format": "kneeboard-campaign/1", "campaign": head, "points": points}


def test_bounds_read_as_bounds_on_the_report_and_the_share_page(stack):
    require_browser()
    tag = secrets.token_hex(3)
    cases = {"at_least": (sweep_document(f"held everywhere {tag}", 1.0), "≥ 4,000 qps"),
             "below": (sweep_document(f"missed at once {tag}", 9.0), "< 500 qps"),
             "search": (search_document(f"searched {tag}", 600.0), "610.6 req/s")}  # fmt: skip
    expected = []
    for kind, (document, shown) in cases.items():
        imported = stack.api.post("/api/v1/campaigns/import", files=[("file", (f"{kind}.json", json.dumps(document).encode()))])
        assert imported.status_code == 201, imported.text
        campaign_id = imported.json()["id"]
        share = stack.api.post(f"/api/v1/campaigns/{campaign_id}/shares", json={"expires_in_s": 3600})
        assert share.status_code == 201, share.text
        token = urlsplit(share.json()["url"]).path.rsplit("/", 1)[-1]
        exported = stack.api.get(f"/api/v1/shared/{token}/export.html")
        assert exported.status_code == 200 and shown in html.unescape(exported.text), f"the link's HTML file says {shown!r}"
        expected.append({"id": campaign_id, "share": urlsplit(share.json()["url"]).path, "kind": "between" if kind == "search" else kind,
                         "value": shown, "search": kind == "search"})  # fmt: skip
    run_node_script(stack, "bounds.mjs", user_prefix="bounds", extra_env={"KB_BOUNDS": json.dumps(expected)}, timeout=180)
