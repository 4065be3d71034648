"""Importing results people already have: seed CSV, raw dnsperf output, Kneeboard's own JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"


def upload(stack, *files: tuple[str, bytes], **form):
    return stack.api.post("/api/v1/campaigns/import", files=[("file", f) for f in files], data=form)


def total(stack) -> int:
    return stack.api.get("/api/v1/campaigns").json()["total"]


def test_seed_csv_reproduces_the_seed_conclusions(stack, dns_target):
    response = upload(stack, ("full_vm_benchmark.csv", (DATA / "seed000.csv").read_bytes()), name="seed 000", target_id=str(dns_target["id"]))
    assert response.status_code == 201, response.text
    campaign = response.json()
    assert campaign["status"] == "completed" and campaign["source"] == "import: full_vm_benchmark.csv (seed CSV)"
    assert campaign["target"]["id"] == dns_target["id"] and "imported" in campaign["tags"]
    analysis = campaign["analysis"]
    assert 10_000 <= analysis["knee"]["offered_rate"] <= 14_500
    assert 16_300 <= analysis["ceiling"]["achieved_rate"] <= 16_800
    assert abs(analysis["usl"]["peak_rate"] - analysis["ceiling"]["achieved_rate"]) / analysis["ceiling"]["achieved_rate"] < 0.10
    zones = {z["zone"]: z for z in analysis["zones"]}
    assert zones["green"]["to_rate"] == pytest.approx(10_000, rel=0.1) and zones["red"]["from_rate"] == pytest.approx(14_000, rel=0.1)
    assert "knee" in analysis["conclusion"].lower()
    points = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    assert {p["phase"] for p in points} == {"scalability", "saturation", "stability"}
    assert all(p["metrics"]["efficiency"] == pytest.approx(p["metrics"]["achieved_rate"] / p["offered_rate"]) for p in points)


def test_raw_dnsperf_files_one_point_each(stack, fixtures_dir):
    names = [f"dnsperf-2.10-scal-c{c}-Q{c * 2500}.txt" for c in (1, 2, 4, 8, 16)]
    response = upload(stack, *[(n, (fixtures_dir / n).read_bytes()) for n in reversed(names)])
    assert response.status_code == 201, response.text
    points = stack.api.get(f"/api/v1/campaigns/{response.json()['id']}/points").json()
    assert [(p["concurrency"], p["offered_rate"], p["duration_s"]) for p in points] == [(c, c * 2500.0, 10.0) for c in (1, 2, 4, 8, 16)]
    assert all(p["phase"] == "scalability" and p["status"] == "completed" for p in points)
    evidence = stack.api.get(f"/api/v1/points/{points[2]['id']}").json()
    assert evidence["argv"][:3] == ["dnsperf", "-s", "127.0.0.1"] and evidence["tool_version"] == "2.10.0"
    assert evidence["metrics"]["achieved_rate"] == pytest.approx(9999.826003)


def test_json_export_round_trip(stack, dns_target):
    first = upload(stack, ("seed.csv", (DATA / "seed000.csv").read_bytes())).json()
    exported = stack.api.get(f"/api/v1/campaigns/{first['id']}/export.json").content
    again = upload(stack, ("campaign.json", exported))
    assert again.status_code == 201, again.text
    before = stack.api.get(f"/api/v1/campaigns/{first['id']}/points").json()
    after = stack.api.get(f"/api/v1/campaigns/{again.json()['id']}/points").json()
    keep = ("seq", "phase", "concurrency", "offered_rate", "repeat", "status", "metrics", "variant")
    assert [{k: p[k] for k in keep} for p in after] == [{k: p[k] for k in keep} for p in before]
    assert again.json()["analysis"]["knee"] == first["analysis"]["knee"]


@pytest.mark.parametrize("content,where", [
    (b"Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms,StdDev_ms\nScalability,1,2500,2499,0.5,0.1\nScalability,x,5000,4999,0.5,\n", "line 3, column 2"),
    (b"Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms\n", "line 1, column 6"),
    (b"Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms,StdDev_ms\nWarmup,1,2500,2499,0.5,0.1\n", "line 2, column 1"),
    (b'{"campaign": {"plan": {}}, "points": [ {"seq": 1,,}]}', "line 1, column"),
    (b"just some text\n", "line 1, column 1"),
])  # fmt: skip
def test_malformed_files_are_refused_whole(stack, content, where):
    before = total(stack)
    response = upload(stack, ("bad.txt", content))
    assert response.status_code == 422, response.text
    detail = response.json()["detail"][0]
    assert detail["loc"] == ["body", "file"] and where in detail["msg"]
    assert total(stack) == before


def test_half_good_dnsperf_batch_stores_nothing(stack, fixtures_dir):
    before = total(stack)
    good = ("dnsperf-2.10-c1-Q500.txt", (fixtures_dir / "dnsperf-2.10-c1-Q500.txt").read_bytes())
    response = upload(stack, good, ("garbage.txt", b"[Status] Command line: dnsperf -c 2\nnothing else\n"))
    assert response.status_code == 422 and "garbage.txt" in response.json()["detail"][0]["msg"]
    assert total(stack) == before


def _export_with(stack, change) -> bytes:
    """A real export of an imported campaign, changed by `change(document)`."""
    import json

    first = upload(stack, ("seed.csv", (DATA / "seed000.csv").read_bytes())).json()
    document = json.loads(stack.api.get(f"/api/v1/campaigns/{first['id']}/export.json").content)
    change(document)
    return json.dumps(document).encode()


@pytest.mark.parametrize("change,where", [
    (lambda d: d["points"].append(dict(d["points"][0])), "seq: point 0 is repeated"),
    (lambda d: d["points"][1].update(metrics=[1, 2]), "points[1].metrics"),
    (lambda d: d["points"][2].update(concurrency=10**20), "points[2].concurrency"),
    (lambda d: d["points"][0].update(seq="x"), "points[0].seq"),
    (lambda d: d["points"][0].pop("phase"), "points[0].phase"),
])  # fmt: skip
def test_a_malformed_export_names_the_point_and_field(stack, change, where):
    body = _export_with(stack, change)
    before = total(stack)
    response = upload(stack, ("campaign.json", body))
    assert response.status_code == 422, response.text
    assert where in response.json()["detail"][0]["msg"]
    assert total(stack) == before


@pytest.mark.parametrize("command,where", [
    ("dnsperf -s 127.0.0.1 -d 'queries.txt -c 1 -Q 500", "No closing quotation"),
    ("dnsperf -s 127.0.0.1 -d q.txt -c 100000000000000000000 -Q 500", "concurrency"),
    ("dnsperf -s 127.0.0.1 -d q.txt -c 1 -Q nan", "rate"),
])  # fmt: skip
def test_an_unreadable_dnsperf_command_line_is_refused(stack, fixtures_dir, command, where):
    text = (fixtures_dir / "dnsperf-2.10-c1-Q500.txt").read_text()
    lines = text.splitlines(keepends=True)
    changed = "".join(f"[Status] Command line: {command}\n" if line.startswith("[Status] Command line:") else line for line in lines)
    response = upload(stack, ("bad.txt", changed.encode()))
    assert response.status_code == 422, response.text
    assert where in response.json()["detail"][0]["msg"] and "line" in response.json()["detail"][0]["msg"]
