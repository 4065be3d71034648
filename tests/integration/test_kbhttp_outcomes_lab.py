"""kbhttp's outcomes per 10 ms through the lab's HAProxy, end to end (issue 39): a campaign through the API (Celery
worker → kbhttp → lab-haproxy → three nginx backends → Postgres) whose point counts `X-Backend` per bucket; the
outcome file is stored with the point and round robin gives each backend a third of the requests."""

from __future__ import annotations

import pytest

from kneeboard.analysis import failover
from kneeboard.lab import haproxy

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run, target

skip_without_lab()

RATE, SECONDS = 1000, 6


def test_roundrobin_gives_each_backend_a_third_counted_per_10_ms(stack, lab):
    plan = {"name": "haproxy spread", "tool": "kbhttp", "target_id": target(stack, haproxy.SERVICE, "http", haproxy.PORT),
            "params": {"count_header": "X-Backend", "timeout_s": 2},
            "phases": [{"kind": "stability", "concurrency": 20, "rate": RATE, "duration_s": SECONDS}], "pause_s": 0}
    campaign, points = run(stack, plan)
    assert campaign["status"] == "completed", [p["error"] for p in points]
    point = stack.api.get(f"/api/v1/points/{points[0]['id']}").json()
    assert "--count-header" in point["argv"] and point["argv"][point["argv"].index("--outcomes") + 1].endswith("/kbhttp-outcomes.jsonl")
    assert "outcomes" not in point["extra"] and point["extra"]["outcomes_stored"] is True  # bulky: its own route
    answer = stack.api.get(f"/api/v1/points/{points[0]['id']}/outcomes").json()
    stored, summary = answer["outcomes"], answer["summary"]
    assert stack.api.get("/api/v1/points/999999999/outcomes").status_code == 404
    assert summary["failed_by_class"] == {} and summary["error_window"] is None and set(summary["spread"]) == {"b1", "b2", "b3"}
    assert (stored["bucket_ms"], stored["buckets"], stored["header"]) == (10, SECONDS * 100 + 1, "X-Backend")
    o = failover.Outcomes.from_stored(stored)
    completed = point["metrics"]["completed"]
    assert completed == RATE * SECONDS and sum(o.series("ok")) == completed and failover.failed_by_class(o) == {}
    per_bucket = [n for n in o.series("ok") if n]
    assert len(per_bucket) == SECONDS * 100 and set(per_bucket) == {RATE // 100}, "10 requests intended in each 10 ms"
    spread = failover.spread(o)
    assert set(spread) == {"b1", "b2", "b3"} and sum(s["requests"] for s in spread.values()) == completed
    for backend, share in spread.items():
        assert share["share"] == pytest.approx(1 / 3, abs=0.02), (backend, spread)
    assert failover.persistence(o)["connections"] == 20
    print(f"\nfigures: {completed:.0f} requests at {RATE} req/s through lab-haproxy (roundrobin): "
          + ", ".join(f"{b} {s['share']:.2%}" for b, s in spread.items()) + f"; outcomes stored in {stored['buckets']} buckets of 10 ms")
