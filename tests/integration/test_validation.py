"""Bad input is refused with a 422 naming the field, and changes nothing; unknown ids are 404."""

from __future__ import annotations

import pytest

GOOD_PHASES = [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}]


def plan_body(target: int, **changes) -> dict:
    body = {"name": "v", "tool": "dnsperf", "target_id": target, "params": {"names": ["www.example.lab"]}, "phases": GOOD_PHASES}
    body.update(changes)
    return body


def counts(api) -> tuple[int, int, int]:
    return (len(api.get("/api/v1/targets").json()), len(api.get("/api/v1/plans").json()), api.get("/api/v1/campaigns").json()["total"])


def locs(response) -> list[list]:
    assert response.status_code == 422, response.text
    return [err["loc"] for err in response.json()["detail"]]


@pytest.mark.parametrize("change,field", [
    ({"host": "not a host!"}, "host"), ({"host": "-oops"}, "host"), ({"port": 0}, "port"), ({"port": 65536}, "port"),
    ({"port": "eighty"}, "port"), ({"kind": "ftp"}, "kind"), ({"name": ""}, "name"),
])  # fmt: skip
def test_bad_targets(stack, change, field):
    before = counts(stack.api)
    body = {"name": "bad", "kind": "dns", "host": "127.0.0.1", "port": 53, **change}
    assert any(field in loc for loc in locs(stack.api.post("/api/v1/targets", json=body)))
    assert counts(stack.api) == before


def test_missing_target_field(stack):
    assert ["body", "port"] in locs(stack.api.post("/api/v1/targets", json={"name": "x", "kind": "dns", "host": "127.0.0.1"}))


@pytest.mark.parametrize("change,field", [
    ({"phases": [{"kind": "baseline", "concurrency": 1, "duration_s": 0}]}, "duration_s"),
    ({"phases": [{"kind": "baseline", "concurrency": 1, "duration_s": -3}]}, "duration_s"),
    ({"phases": [{"kind": "stability", "concurrency": 0, "duration_s": 1}]}, "concurrency"),
    ({"phases": [{"kind": "stability", "concurrency": 10**9, "duration_s": 1}]}, "concurrency"),
    ({"phases": [{"kind": "stability", "concurrency": 1, "rate": 1e15, "duration_s": 1}]}, "rate"),
    ({"phases": [{"kind": "scalability", "concurrency": [1, 0], "unit_rate": 10, "duration_s": 1}]}, "concurrency"),
    ({"phases": [{"kind": "stability", "concurrency": "many", "duration_s": 1}]}, "concurrency"),
    ({"phases": [{"kind": "warmup", "concurrency": 1, "duration_s": 1}]}, "kind"),
    ({"phases": [{"kind": "saturation", "concurrency": 2, "rate": {"start": 1, "stop": 100000, "step": 1}, "duration_s": 1}]}, "rate"),
    ({"phases": [{"kind": "scalability", "concurrency": list(range(1, 400)), "duration_s": 1}], "repeat": 2}, "phases"),
    ({"params": {"names": ["www example.lab"]}}, "names"),
    ({"params": {"names": ["-d/etc/passwd"]}}, "names"),
    ({"params": {"qtype": "BOGUS"}}, "qtype"),
    ({"tool": "nmap"}, "tool"),
    ({"phases": []}, "phases"),
    ({"pause_s": -1}, "pause_s"),
    ({"target_id": 999999}, "target_id"),
])  # fmt: skip
def test_bad_plans_are_refused_and_nothing_is_stored(stack, dns_target, change, field):
    before = counts(stack.api)
    body = plan_body(dns_target["id"], **change)
    for url in ("/api/v1/plans", "/api/v1/plans/preview"):
        found = locs(stack.api.post(url, json=body))
        assert any(field in loc for loc in found), found
    assert counts(stack.api) == before


def test_missing_plan_field(stack, dns_target):
    body = plan_body(dns_target["id"])
    del body["phases"]
    assert ["body", "dnsperf", "phases"] in locs(stack.api.post("/api/v1/plans", json=body))


def test_tool_must_match_target_kind(stack):
    web = stack.api.post("/api/v1/targets", json={"name": "web-for-kind-test", "kind": "http", "host": "127.0.0.1", "port": 8080}).json()
    assert ["body", "dnsperf", "target_id"] in locs(stack.api.post("/api/v1/plans", json=plan_body(web["id"])))


@pytest.mark.parametrize("url", [
    "/api/v1/targets/999999", "/api/v1/plans/999999", "/api/v1/campaigns/999999", "/api/v1/campaigns/999999/points",
    "/api/v1/points/999999", "/api/v1/points/999999/samples", "/api/v1/campaigns/999999/export.csv", "/api/v1/campaigns/999999/events",
])  # fmt: skip
def test_unknown_ids_are_404(stack, url):
    assert stack.api.get(url).status_code == 404


def test_unknown_ids_on_writes_are_404(stack):
    assert stack.api.post("/api/v1/campaigns", json={"plan_id": 999999}).status_code == 404
    assert stack.api.post("/api/v1/campaigns/999999/cancel").status_code == 404
    assert stack.api.delete("/api/v1/targets/999999").status_code == 404
    assert stack.api.patch("/api/v1/targets/999999", json={"port": 53}).status_code == 404


def test_target_crud(stack):
    created = stack.api.post("/api/v1/targets", json={"name": "crud", "kind": "http", "host": "localhost", "port": 80}).json()
    changed = stack.api.patch(f"/api/v1/targets/{created['id']}", json={"port": 8081, "tags": ["edge"]}).json()
    assert changed["port"] == 8081 and changed["tags"] == ["edge"] and changed["host"] == "localhost"
    assert locs(stack.api.patch(f"/api/v1/targets/{created['id']}", json={"port": 70000})) == [["body", "port"]]
    assert stack.api.delete(f"/api/v1/targets/{created['id']}").status_code == 204
    assert stack.api.get(f"/api/v1/targets/{created['id']}").status_code == 404


def test_analysis_thresholds_are_validated(stack):
    from pathlib import Path

    seed = (Path(__file__).resolve().parents[1] / "unit" / "data" / "seed000.csv").read_bytes()
    campaign = stack.api.post("/api/v1/campaigns/import", files=[("file", ("seed.csv", seed))]).json()
    url = f"/api/v1/campaigns/{campaign['id']}/analysis"
    assert ["body", "k"] in locs(stack.api.post(url, json={"k": 0}))
    assert ["body", "min_efficiency"] in locs(stack.api.post(url, json={"min_efficiency": 1.5}))
    assert ["body", "colour"] in locs(stack.api.post(url, json={"colour": "red"}))
    stricter = stack.api.post(url, json={"k": 1.6, "green_ms": 0.8, "yellow_ms": 2}).json()["analysis"]
    assert stricter["thresholds"]["k"] == 1.6 and stricter["knee"]["offered_rate"] <= campaign["analysis"]["knee"]["offered_rate"]
    assert stack.api.post("/api/v1/campaigns/999999/analysis", json={}).status_code == 404


@pytest.mark.parametrize("selectors", [["{id}"], ["x", "{id}"], ["{id}@nope", "{id}"], ["{id}", "{id}"]])
def test_bad_compare_selections(stack, selectors):
    csv = b"Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms,StdDev_ms\nScalability,1,100,99,0.5,\n"
    ident = stack.api.post("/api/v1/campaigns/import", files=[("file", ("one.csv", csv))]).json()["id"]
    response = stack.api.get("/api/v1/compare", params=[("c", s.format(id=ident)) for s in selectors])
    assert ["query", "c"] in locs(response)
    assert stack.api.get("/api/v1/compare", params=[("c", str(ident)), ("c", "999999")]).status_code == 404


def test_bad_profiles_and_imports(stack):
    assert ["body", "name"] in locs(stack.api.post("/api/v1/profiles", json={"name": "has space", "document": {}}))
    assert ["body", "document"] in locs(stack.api.post("/api/v1/profiles", json={"name": "x"}))
    assert stack.api.post("/api/v1/campaigns/import", files=[("file", ("a.csv", b"x"))], data={"target_id": "999999"}).status_code == 404
    assert ["body", "file"] in locs(stack.api.post("/api/v1/campaigns/import", files=[("file", ("a.bin", b"\xff\xfe\x00"))]))
