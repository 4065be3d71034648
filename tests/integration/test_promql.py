"""PromQL mode through the real stack and a real Prometheus (Debian's, behind basic authentication) scraping a real
node_exporter every second: an admin registers the Prometheus on its allow-list, a target names it with packs and
its own queries, and each point carries the `server.*` series and summary the scrape gives, while a query error,
a query answering 10,000 series and a redirecting Prometheus only warn. The credential is then looked for in
every answer, export, share page, snapshot, audit entry and log of the run: it is nowhere."""

from __future__ import annotations

import io
import secrets
import uuid
import zipfile

import pytest

from tests.integration.test_campaign_run import wait_status
from tests.integration.test_exporter_monitor import launch, points_of
from tests.support.exporter_servers import Endpoint
from tests.support.prometheus import NodeExporter, Prometheus

DONE = {"completed", "failed", "crashed", "cancelled"}
ALLOW = "/api/v1/policy/prometheus"
ONE_POINT = [{"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 3}]
MANY = 10_000


@pytest.fixture(scope="module")
def prometheus(tmp_path_factory):
    """node_exporter (with a textfile of 10,000 `kb_many` series) scraped every second by a Prometheus that wants a password."""
    workdir = tmp_path_factory.mktemp("promql")
    textfiles = workdir / "textfile"
    textfiles.mkdir()
    (textfiles / "many.prom").write_text("# TYPE kb_many gauge\n" + "".join(f'kb_many{{i="{i}"}} {i}\n' for i in range(MANY)))
    password = "kb-" + secrets.token_urlsafe(24)
    with NodeExporter(textfiles) as node, Prometheus(workdir / "prom", {"node": [node.address]}, user=("kneeboard", password)) as prom:
        prom.wait_for('node_cpu_seconds_total{mode="idle"}')
        prom.wait_for("kb_many", MANY)
        yield prom, password


@pytest.fixture()
def allowed(stack):
    """The Prometheus allow-list takes loopback for the test, and is put back after it."""
    before = stack.api.get(ALLOW).json()
    assert stack.api.put(ALLOW, json={"networks": ["127.0.0.1/32"], "hosts": []}).status_code == 200
    yield
    assert stack.api.put(ALLOW, json={k: before[k] for k in ("networks", "hosts")}).status_code == 200


def register(stack, url: str, **extra) -> dict:
    answer = stack.api.post("/api/v1/prometheus", json={"name": f"p-{uuid.uuid4().hex[:8]}", "url": url, "scrape_interval_s": 1, **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def target_with(stack, source: dict) -> dict:
    body = {"name": f"promql-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port, "prometheus": source}
    answer = stack.api.post("/api/v1/targets", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def plan(target_id: int, phases: list[dict] = ONE_POINT) -> dict:
    return {"name": "promql", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 2}, "phases": phases}


def warnings_of(point: dict) -> list[str]:
    return [w for w in point["warnings"] if w.startswith("prometheus ")]


def test_a_campaign_reads_its_servers_metrics_by_promql_and_the_credential_is_nowhere(stack, prometheus, allowed):
    prom, password = prometheus
    server = register(stack, prom.url, basic={"username": "kneeboard", "password": password})
    assert server["auth"] == "basic" and password not in str(server)
    source = {"server": server["name"], "selector": '{job="node"}', "packs": ["node", "process"],
              "queries": [{"name": "load", "query": 'node_load1{job="node"}', "unit": "1"},
                          {"name": "broken", "query": "sum(rate(node_cpu_seconds_total[", "unit": "1"},
                          {"name": "many", "query": "kb_many", "unit": "1", "by": ["i"]}]}
    target = target_with(stack, source)
    campaign_id = launch(stack.api, plan(target["id"]))
    campaign = wait_status(stack.api, campaign_id, DONE, timeout_s=60)
    [point] = points_of(stack.api, campaign_id)
    assert campaign["status"] == "completed" and point["status"] == "completed", point["error"]
    assert point["metrics"]["achieved_rate"] > 150
    found = warnings_of(point)
    assert any("server.promql.broken" in w and "query error (bad_data)" in w for w in found), found
    assert any("server.promql.many" in w and f"{MANY} series, over the cap of 200" in w for w in found), found
    assert len(found) == 2, found  # the rest read without complaint: the password was accepted
    summary = point["extra"]["monitors"][f"exporter.prometheus {server['name']}"]
    idle = {k: v for k, v in summary["packs"]["node"]["cpu"].items() if k.endswith(".idle")}
    assert idle and all(0 <= v <= 100.5 for v in idle.values()), summary["packs"]["node"]["cpu"]
    assert summary["packs"]["process"]["cpu"]["value"] >= 0 and summary["packs"]["promql"]["load"]["value"] >= 0
    assert summary["query_errors"] == 2 and summary["steady_intervals"] >= 1
    samples = stack.api.get(f"/api/v1/points/{point['id']}/samples").json()["samples"]
    cpu = [s for s in samples if s["series"] == "server.node.cpu"]
    assert cpu and all(summary["first_step"] - 0.01 <= s["t"] <= summary["first_step"] + 4 for s in cpu)
    assert "server.promql.load" in {s["series"] for s in samples} and "server.promql.many" not in {s["series"] for s in samples}
    evidence = campaign["analysis"]["evidence"]["points"][0]
    assert evidence["bottleneck"]["value"] is not None, evidence  # the evidence read the CPUs PromQL gave
    print(f"\nfigures: PromQL point: {len(cpu)} steps of server.node.cpu, {summary['queries']} query_range calls, "
          f"idle by CPU {dict((k, round(v, 1)) for k, v in idle.items())}; bottleneck: {evidence['bottleneck']['text']}")
    assert_nowhere(stack, password, campaign_id, point["id"])


def assert_nowhere(stack, secret: str, campaign_id: int, point_id: int) -> None:
    """The secret in no API answer, export, share page, snapshot, audit entry or log of the stack."""
    share = stack.api.post(f"/api/v1/campaigns/{campaign_id}/shares", json={"expires_in_s": 3600})
    assert share.status_code == 201, share.text
    token = share.json()["url"].rstrip("/").rsplit("/", 1)[1]
    texts = {path: stack.api.get(path) for path in [
        "/api/v1/prometheus", ALLOW, f"/api/v1/campaigns/{campaign_id}", f"/api/v1/campaigns/{campaign_id}/points",
        f"/api/v1/points/{point_id}/samples", f"/api/v1/campaigns/{campaign_id}/export.html", f"/api/v1/campaigns/{campaign_id}/export.csv",
        f"/api/v1/campaigns/{campaign_id}/export.json", f"/api/v1/shared/{token}", f"/api/v1/shared/{token}/export.html",
        f"/api/v1/shared/{token}/points/{point_id}/samples", "/api/v1/audit?limit=500", "/api/v1/targets"]}
    assert all(r.status_code == 200 for r in texts.values()), {p: r.status_code for p, r in texts.items() if r.status_code != 200}
    assert texts[f"/api/v1/campaigns/{campaign_id}"].json()["target"]["prometheus"]["server"]  # the snapshot names the server
    bodies = {path: r.text for path, r in texts.items()}
    archive = stack.api.get(f"/api/v1/campaigns/{campaign_id}/export.md.zip")
    with zipfile.ZipFile(io.BytesIO(archive.content)) as zipped:
        bodies |= {f"export.md.zip:{name}": zipped.read(name).decode(errors="replace") for name in zipped.namelist()}
    bodies |= {f"log:{log.name}": log.read_text(errors="replace") for log in stack.tmp.glob("*.log")}
    bodies |= {f"workdir:{f}": f.read_text(errors="replace") for f in (stack.tmp / "work" / f"campaign-{campaign_id}").rglob("*") if f.is_file()}
    assert len([k for k in bodies if k.startswith("log:")]) >= 2 and any(k.startswith("workdir:") for k in bodies), sorted(bodies)
    leaked = [where for where, text in bodies.items() if secret in text]
    assert leaked == [], leaked
    print(f"\nfigures: the credential searched in {len(bodies)} answers, exports, logs and spool files: found in none")


def test_urls_off_the_allow_list_and_unknown_servers_are_refused_naming_the_field(stack, allowed):
    refused = stack.api.post("/api/v1/prometheus", json={"name": "off-list", "url": "http://192.0.2.7:9090"})
    assert refused.status_code == 422
    detail = refused.json()["detail"][0]
    assert detail["loc"][-1] == "url" and "192.0.2.7" in detail["msg"] and "Prometheus allow-list" in detail["msg"], detail
    bad = stack.api.post("/api/v1/prometheus", json={"name": "ftp", "url": "ftp://127.0.0.1/x"})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"][-1] == "url"
    body = {"name": f"t-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port,
            "prometheus": {"server": "nobody", "packs": ["node"]}}
    unknown = stack.api.post("/api/v1/targets", json=body)
    assert unknown.status_code == 422 and unknown.json()["detail"][0]["loc"][-2:] == ["prometheus", "server"], unknown.text


def test_a_prometheus_a_target_names_is_not_deleted_until_the_target_is(stack, allowed):
    """promql/ imports no target: targets register what names a Prometheus at start (extensions.py), and the API's
    delete asks them. A 409 naming the target, then a 204 once the target is gone."""
    server = register(stack, "http://127.0.0.1:9")
    target = target_with(stack, {"server": server["name"], "packs": ["node"]})
    refused = stack.api.delete(f"/api/v1/prometheus/{server['id']}")
    assert refused.status_code == 409 and target["name"] in refused.text, refused.text
    assert stack.api.delete(f"/api/v1/targets/{target['id']}").status_code == 204
    assert stack.api.delete(f"/api/v1/prometheus/{server['id']}").status_code == 204


def test_a_redirecting_prometheus_is_not_followed_and_the_point_is_kept(stack, prometheus, allowed):
    prom, _ = prometheus
    with Endpoint("redirect", location=f"{prom.url}/api/v1/query_range") as moved:
        server = register(stack, f"http://127.0.0.1:{moved.port}")
        target = target_with(stack, {"server": server["name"], "selector": '{job="node"}', "packs": ["process"]})
        campaign = wait_status(stack.api, launch(stack.api, plan(target["id"], [{**ONE_POINT[0], "duration_s": 2}])), DONE, timeout_s=60)
        [point] = points_of(stack.api, campaign["id"])
        asked = len(moved.requests)
    assert campaign["status"] == "completed" and point["status"] == "completed", point["error"]
    [warning] = warnings_of(point)
    assert "HTTP 302" in warning and "not followed" in warning, warning
    assert asked == 1  # the first query's redirect ends the server's queries for the point
    assert f"exporter.prometheus {server['name']}" not in point["extra"].get("monitors", {}) or \
        not point["extra"]["monitors"][f"exporter.prometheus {server['name']}"]["packs"]


def test_results_go_out_by_remote_write_and_a_promql_query_finds_them(stack, allowed, tmp_path):
    """Two variants × one point into a Prometheus with its remote-write receiver: each point's achieved rate comes back
    with the labels campaign, plan, target, phase, point and variant, equal to the stored figure."""
    with Prometheus(tmp_path / "rw", {}, remote_write=True) as prom:
        server = register(stack, prom.url, remote_write=True)
        try:
            body = {"name": f"rw-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port}
            target = stack.api.post("/api/v1/targets", json=body).json()
            variants = [{"label": "timeout-2", "params": {"timeout_s": 2}}, {"label": "timeout-3", "params": {"timeout_s": 3}}]
            campaign_id = launch(stack.api, {**plan(target["id"], [{**ONE_POINT[0], "duration_s": 2}]), "variants": variants})
            campaign = wait_status(stack.api, campaign_id, DONE, timeout_s=60)
            points = points_of(stack.api, campaign_id)
            found = prom.wait_for(f'kneeboard_achieved_rate{{campaign="{campaign_id}"}}', count=2)
            intervals = prom.query(f'kneeboard_interval_achieved_rate{{campaign="{campaign_id}"}}[5m]')
        finally:
            assert stack.api.delete(f"/api/v1/prometheus/{server['id']}").status_code == 204
    assert campaign["status"] == "completed"
    by_point = {series["metric"]["point"]: series for series in found}
    assert set(by_point) == {str(p["id"]) for p in points}
    for point in points:
        series = by_point[str(point["id"])]
        assert series["metric"] == {"__name__": "kneeboard_achieved_rate", "campaign": str(campaign_id), "plan": "promql",
                                    "target": target["name"], "phase": point["phase"], "point": str(point["id"]),
                                    "variant": point["variant"]}
        assert float(series["value"][1]) == pytest.approx(point["metrics"]["achieved_rate"])
        print(f"\nfigures: remote write: point {point['id']} ({point['variant']}) achieved {float(series['value'][1]):.1f} q/s in Prometheus, "
              f"{point['metrics']['achieved_rate']:.1f} stored")
    stored = {str(p["id"]): [(int(s["t"] * 1000) / 1000, s["values"]["achieved_rate"]) for s in
                             stack.api.get(f"/api/v1/points/{p['id']}/samples", params={"series": "point"}).json()["samples"]]
              for p in points}
    sent = {s["metric"]["point"]: [(float(t), float(v)) for t, v in s["values"]] for s in intervals}
    assert sent == {k: v for k, v in stored.items() if v} and sent, (sent, stored)  # a 2 s point may have no whole interval
    audit = stack.api.get("/api/v1/audit", params={"limit": 50}).json()
    assert any(e["action"] == "remote_write" and e["details"]["campaign_id"] == campaign_id for e in audit["items"]), audit
