"""The tool contract seen through the API: GET /tools, and plan-level checks refused at POST /plans."""

from __future__ import annotations

import uuid

import pytest

STABLE = {"kind": "stability", "duration_s": 1}


def _target(stack, kind: str, host: str = "127.0.0.1", port: int = 9) -> dict:
    body = {"name": f"{kind}-{uuid.uuid4().hex[:8]}", "kind": kind, "host": host, "port": port}
    response = stack.api.post("/api/v1/targets", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_tools_lists_the_tools_with_schemas_and_units(stack):
    response = stack.api.get("/api/v1/tools")
    assert response.status_code == 200
    tools = {t["name"]: t for t in response.json()}
    assert set(tools) == {"dnsperf", "wrk", "kbhttp", "iperf3", "devsim", "mpstat", "ping", "node", "exporter", "process"}
    for tool in tools.values():
        assert tool["params_schema"]["properties"], tool["name"]
        assert tool["metrics"] and all(m["unit"] for m in tool["metrics"])
    assert tools["iperf3"]["headline"] == "throughput_bps"
    assert tools["iperf3"]["params_schema"]["properties"]["length"]["anyOf"][0]["maximum"] == 1024 * 1024
    assert tools["wrk"]["takes_rate"] is False and tools["wrk"]["ramp_allowed"] is True
    assert {tools[m]["role"] for m in ("mpstat", "ping", "node", "exporter")} == {"monitor"}
    assert stack.api.get("/api/v1/tools/nope").status_code == 404


def _refused(stack, plan: dict) -> list[dict]:
    response = stack.api.post("/api/v1/plans", json=plan)
    assert response.status_code == 422, response.text
    return response.json()["detail"]


def test_wrk_threads_above_a_phase_concurrency_is_refused(stack):
    target = _target(stack, "http")
    plan = {"name": "w", "tool": "wrk", "target_id": target["id"], "params": {"threads": 8},
            "phases": [{**STABLE, "concurrency": 100}, {**STABLE, "concurrency": 4}]}
    [error] = _refused(stack, plan)
    assert error["loc"] == ["body", "wrk", "params", "threads"]
    assert "4" in error["msg"]
    preview = stack.api.post("/api/v1/plans/preview", json=plan)
    assert preview.status_code == 422 and preview.json()["detail"][0]["loc"][-1] == "threads"


def test_iperf3_more_than_128_streams_is_refused(stack):
    target = _target(stack, "net")
    plan = {"name": "i", "tool": "iperf3", "target_id": target["id"],
            "phases": [{"kind": "scalability", "concurrency": [1, 64, 200], "duration_s": 1}]}
    [error] = _refused(stack, plan)
    assert error["loc"] == ["body", "iperf3", "phases", 0, "concurrency"]
    assert "128" in error["msg"]


def test_devsim_several_source_ips_only_towards_loopback(stack):
    remote = _target(stack, "device", host="10.77.0.2", port=7000)
    plan = {"name": "d", "tool": "devsim", "target_id": remote["id"], "params": {"source_ips": 4},
            "phases": [{**STABLE, "concurrency": 10, "rate": 1}]}
    [error] = _refused(stack, plan)
    assert error["loc"] == ["body", "devsim", "params", "source_ips"]
    local = _target(stack, "device", port=7000)
    response = stack.api.post("/api/v1/plans", json={**plan, "target_id": local["id"]})
    assert response.status_code == 201, response.text


def test_yaml_import_validates_through_the_same_check(stack):
    target = _target(stack, "http")
    text = f"name: y\ntool: wrk\ntarget_id: {target['id']}\nparams: {{threads: 8}}\nphases:\n- {{kind: stability, concurrency: 2, duration_s: 1}}\n"
    response = stack.api.post("/api/v1/plans/import.yaml", content=text, headers={"Content-Type": "application/yaml"})
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"][-1] == "threads"


@pytest.mark.parametrize("params,field", [({"threads": "2"}, "threads"), ({"script": "/tmp/x.lua"}, "script"), ({"path": "/a b"}, "path")])
def test_wrk_params_bounds_name_the_field(stack, params, field):
    target = _target(stack, "http")
    [error] = _refused(stack, {"name": "w", "tool": "wrk", "target_id": target["id"], "params": params, "phases": [{**STABLE, "concurrency": 2}]})
    assert error["loc"][-1] == field
