"""Every view is a URL (tests/e2e/views.mjs, playwright-core driving Debian's Chromium) against the real stack.

Three campaigns are imported through the API as Kneeboard JSON exports built here: two variants each ("1 queue",
"4 queues"), a scalability sweep measured twice at every load (error bars) and a saturation sweep with latency
percentiles, so the report has variant tabs, a percentile choice, a log axis and legend entries to set.
"""

from __future__ import annotations

import json
import secrets

from tests.support.browser import require_browser, run_node_script

VARIANTS = ("1 queue", "4 queues")


def _metrics(offered: float, achieved: float, latency_ms: float) -> dict:
    """A point's metrics as dnsperf's adapter reports them, percentiles included."""
    sent = round(offered * 2)
    completed = round(achieved * 2)
    return {"achieved_rate": achieved, "latency_avg_ms": latency_ms, "latency_min_ms": latency_ms * 0.4,
            "latency_max_ms": latency_ms * 12, "latency_p50_ms": latency_ms * 0.9, "latency_p90_ms": latency_ms * 1.8,
            "latency_p99_ms": latency_ms * 4, "latency_p999_ms": latency_ms * 9, "sent": sent, "completed": completed,
            "lost": sent - completed, "loss_pct": 100 * (sent - completed) / sent}  # fmt: skip


def export_document(name: str, tag: str, speed: float) -> dict:
    """A Kneeboard JSON export of a finished two-variant campaign; `speed` scales its capacity."""
    points, seq = [], 0
    for variant in VARIANTS:
        ceiling = 9000 * speed * (1.6 if variant == VARIANTS[1] else 1)
        for concurrency in (1, 2, 4, 8):
            for repeat in (0, 1):
                offered = 2500.0 * concurrency
                achieved = min(offered, ceiling) * (0.985 if repeat else 0.995)
                row = {"seq": seq, "phase": "scalability", "concurrency": concurrency, "offered_rate": offered, "duration_s": 2.0,
                       "variant": variant, "repeat": repeat, "metrics": _metrics(offered, achieved, 0.4 + 0.1 * concurrency + 0.05 * repeat)}  # fmt: skip
                points.append(row)
                seq += 1
        for rate in range(4000, 18001, 2000):
            achieved = min(rate, ceiling) * 0.995
            latency = 0.5 if rate <= ceiling * 0.8 else 0.5 + (rate - ceiling * 0.8) / 400
            points.append({"seq": seq, "phase": "saturation", "concurrency": 20, "offered_rate": float(rate), "duration_s": 2.0,
                           "variant": variant, "repeat": 0, "metrics": _metrics(rate, achieved, latency)})  # fmt: skip
            seq += 1
    plan = {"name": name, "tool": "dnsperf", "target_id": None, "params": {"names": ["www.example.lab"], "qtype": "A"},
            "phases": [{"kind": "scalability", "concurrency": [1, 2, 4, 8], "unit_rate": 2500, "duration_s": 2},
                       {"kind": "saturation", "concurrency": 20, "rate": {"start": 4000, "stop": 18000, "step": 2000}, "duration_s": 2}],
            "pause_s": 0, "repeat": 2, "variants": [{"label": v, "set": {}} for v in VARIANTS]}  # fmt: skip
    head = {"name": name, "tool": "dnsperf", "agent": "local", "tags": [tag], "plan": plan, "environment": {},
            "target": {"name": "views-dns", "kind": "dns", "host": "127.0.0.1", "port": 53, "tags": []}}  # fmt: skip
    return {"format": "kneeboard-campaign/1", "campaign": head, "points": points}


def test_every_view_is_a_url(stack):
    require_browser()
    tag = f"views-{secrets.token_hex(3)}"
    ids = []
    for name, speed in (("views alpha", 1.0), ("views beta", 1.3), ("views gamma", 0.8)):
        document = json.dumps(export_document(f"{name} {tag}", tag, speed)).encode()
        imported = stack.api.post("/api/v1/campaigns/import", files=[("file", (f"{name}.json", document))])
        assert imported.status_code == 201, imported.text
        ids.append(imported.json()["id"])
    run_node_script(stack, "views.mjs", user_prefix="views", extra_env={"KB_VIEWS_TAG": tag, "KB_VIEWS_IDS": ",".join(map(str, ids))}, timeout=300)
