"""Issue 39's link cost across campaigns: one lab campaign of 3 s kbhttp points at 1,000 req/s through lab-http, three
repetitions on a clean link and three at 1 % loss (variant lab.loss_permille 10); the comparison of its two variants
has a row of TCP retransmissions per 1,000 requests whose verdict is "worse" for the lossy side, and no row of the
share of packets dropped (the clean side counts no packets: nothing to compare with)."""

from __future__ import annotations

from tests.integration.conftest import lab_target, skip_without_lab
from tests.integration.test_lab_campaigns import run

skip_without_lab()
CLEAN, LOSSY = "clean link", "1 % loss"


def test_a_lossy_link_costs_more_retransmissions_per_request_than_a_clean_one(stack, lab):
    plan = {"name": "link cost x3", "tool": "kbhttp", "target_id": lab_target(stack, "lab-http"), "repeat": 3, "pause_s": 0,
            "params": {"path": "/index.html", "timeout_s": 2},
            "phases": [{"kind": "stability", "concurrency": 20, "rate": 1000, "duration_s": 3}],
            "variants": [{"label": CLEAN, "set": {}}, {"label": LOSSY, "set": {"lab.loss_permille": 10}}]}  # fmt: skip
    campaign, points = run(stack, plan)
    assert campaign["status"] == "completed" and len(points) == 6, [p["error"] for p in points]
    for p in points:
        link = stack.api.get(f"/api/v1/points/{p['id']}").json()["extra"]["impairment"]
        packets = link.get("packets") or {}
        print(f"\nfigures: {p['variant']} repeat {p['repeat']}: achieved {p['metrics']['achieved_rate']:.2f} req/s over "
              f"{p['duration_s']} s, retransmissions {link['tcp_retransmissions']}, packets {packets.get('arrived')} arrived "
              f"{packets.get('dropped')} dropped, p99 {p['metrics']['latency_p99_ms']:.2f} ms")
    ref, other = f"{campaign['id']}@{CLEAN}", f"{campaign['id']}@{LOSSY}"
    found = stack.api.get("/api/v1/compare", params={"c": [ref, other]})
    assert found.status_code == 200, found.text
    rows = {r["metric"]: r for r in found.json()["headline"]}
    cost = rows["link_retransmissions"]
    print(f"\nfigures: {cost['label']}: {cost['values']} {cost['verdicts']} {cost['details']}")
    assert cost["unit"] == "retransmissions per 1,000 requests" and cost["label"].startswith("Link: TCP retransmissions per 1,000 requests")
    assert cost["verdicts"][other] == "worse" and cost["basis"][other] == "Welch's t-test on 3 and 3 repetitions", cost
    assert cost["values"][other] > 5 * cost["values"][ref], cost["values"]
    assert "link_dropped_pct" not in rows, "the clean side counted no packets: no row rather than a comparison with nothing"
