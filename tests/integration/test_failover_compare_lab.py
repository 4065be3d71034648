"""Issue 39's failover figures across repetitions: two lab campaigns of three 6.5 s kbhttp points through the lab's
HAProxy, backend b2 taken out twice in each point (at 1 s and 3.5 s) and brought back 1 s later, one campaign by SIGKILL and
a start, the other by `disable server` and `enable server` on HAProxy's stats socket (a drain: no failed request). The
comparison carries the failed requests and the recovery time per failure event as headline rows with verdicts (six events
a side); the detection time only where both sides had failures to detect; and per failure event its figures across the
three repetitions (median and range), equal to the stored points', in its API answer and its HTML and Markdown exports. A share link shows the points' outcomes, and
its exported file the failover table and the events on the charts."""

from __future__ import annotations

import io
import statistics
import zipfile

import httpx

from kneeboard.lab import haproxy
from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run, target

skip_without_lab()


def plan(stack, name: str, stop: str, start: str) -> dict:
    return {"name": name, "tool": "kbhttp", "target_id": target(stack, haproxy.SERVICE, "http", haproxy.PORT), "repeat": 3,
            "params": {"count_header": "X-Backend", "timeout_s": 2}, "pause_s": 0,
            "phases": [{"kind": "stability", "concurrency": 20, "rate": 1000, "duration_s": 6.5,
                        "events": [{"at_s": at, "action": action, "value": "b2"}
                                   for at, action in ((1, stop), (2, start), (3.5, stop), (4.5, start))]}]}  # fmt: skip


def test_failover_figures_are_compared_across_repetitions(stack, lab):
    killed, points = run(stack, plan(stack, "failover kill x3", "lab.backend_kill", "lab.backend_start"))
    assert killed["status"] == "completed" and len(points) == 3, [p["error"] for p in points]
    assert all(len(p["extra"]["failover"]) == 2 for p in points), [p["extra"].get("failover") for p in points]
    drained, _ = run(stack, plan(stack, "failover disable x3", "lab.haproxy_disable", "lab.haproxy_enable"))
    assert drained["status"] == "completed"
    found = stack.api.get("/api/v1/compare", params={"c": [killed["id"], drained["id"]]})
    assert found.status_code == 200, found.text
    rows = {r["metric"]: r for r in found.json()["headline"]}
    ref, other = str(killed["id"]), str(drained["id"])
    for metric in ("failover_detection_ms", "failover_recovery_ms", "failover_failed"):
        row = rows.get(metric) or {}
        print(f"\n{metric}: {row.get('values')} {row.get('verdicts')} {row.get('details')}")
    per_point = {c["id"]: [p["extra"]["failover"] for p in stack.api.get(f"/api/v1/campaigns/{c['id']}/points").json()] for c in (killed, drained)}
    for campaign in (killed, drained):
        print(campaign["name"], [(e["detection_s"], e["recovery_s"], e["failed_by_class"]) for f in per_point[campaign["id"]] for e in f])
    failed = rows["failover_failed"]
    assert failed["values"][ref] > 0 and failed["values"][other] == 0, failed["values"]
    assert failed["verdicts"][other] == "better" and failed["basis"][other] == "Welch's t-test on 6 and 6 failure events", failed
    assert "failover_detection_ms" not in rows, "drained: nothing failed, no detection to compare with the kills'"
    recovery = rows["failover_recovery_ms"]["values"]
    assert 400 <= recovery[ref] <= 1500 and recovery[other] < 50, recovery  # rise 2 × 500 ms after a start; an enable at once
    tables = found.json()["failover_events"]
    for campaign in (killed, drained):
        stored = per_point[campaign["id"]]
        table = tables[str(campaign["id"])]
        print(f"\nfigures: {campaign['name']} per event: {table}")
        assert [(r["action"], r["value"], r["at_s"], r["events"]) for r in table] == [(e["action"], e["value"], e["at_s"], 3) for e in stored[0]]
        for i, row in enumerate(table):  # the i-th failure event of each point, its figures across the three repetitions
            for name, values in (("detection_s", [f[i]["detection_s"] for f in stored]), ("recovery_s", [f[i]["recovery_s"] for f in stored]),
                                 ("failed", [sum(f[i]["failed_by_class"].values()) for f in stored]),
                                 ("error_window_s", [(f[i]["error_window"] or {}).get("duration_s") for f in stored])):
                found_values = [v for v in values if v is not None]
                assert row[name] == ({"median": statistics.median(found_values), "min": min(found_values), "max": max(found_values),
                                      "n": len(found_values)} if found_values else None), (name, row[name], values)  # fmt: skip
    assert tables[ref][0]["failed"]["median"] > 0 and tables[other][0]["detection_s"] is None  # a kill fails requests; a drain none
    exported = stack.api.get("/api/v1/compare/export.html", params={"c": [killed["id"], drained["id"]]})
    assert exported.status_code == 200 and 'data-testid="compare-failover-events"' in exported.text, exported.text[:500]
    zipped = stack.api.get("/api/v1/compare/export.md.zip", params={"c": [killed["id"], drained["id"]]})
    assert zipped.status_code == 200, zipped.text[:500]
    markdown = zipfile.ZipFile(io.BytesIO(zipped.content)).read(f"comparison-{killed['id']}-{drained['id']}/report.md").decode()
    assert "## Failover per event, across repetitions" in markdown and markdown.count("backend\\_kill b2 at") == 2, markdown
    created = stack.api.post(f"/api/v1/campaigns/{killed['id']}/shares", json={"expires_in_s": 600})
    token = created.json()["url"].rsplit("/", 1)[1]
    with httpx.Client(base_url=stack.api_url, timeout=90) as visitor:  # no credentials
        shared = visitor.get(f"/api/v1/shared/{token}/points/{points[0]['id']}/outcomes")
        assert shared.status_code == 200 and shared.json()["summary"]["failed_by_class"]["http_5xx"] > 0, shared.text
        assert visitor.get(f"/api/v1/shared/{token}/points/{drained['id'] * 1000}/outcomes").status_code == 404
        exported = visitor.get(f"/api/v1/shared/{token}/export.html")
    assert exported.status_code == 200, exported.text[:500]
    html = exported.text
    assert 'data-testid="failover-table"' in html and html.count("backend_kill b2") >= 2 + 2, "6 table rows' events; markers"
    assert "Request outcomes of point" in html
