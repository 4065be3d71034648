"""The lab's BIND (issue 36): Debian's named 9.18 in netns kblab, authoritative for example.lab from the zone file
Kneeboard writes, its statistics channel counting what dnsperf sent, its query log a variant written on disk; the lab
servers' query logs emptied before each point of a campaign, in place, while the server runs and keeps logging; and
`lab down` stopping it (root + bind9 installed needed)."""

from __future__ import annotations

import json
import socket
import subprocess
import urllib.request

import pytest

from kneeboard.lab import actions, adguard, bind, coredns, dns, namespace, processes, querylogs
from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run

skip_without_lab()
if bind.binary() is None:
    pytest.skip(bind.missing_reason(), allow_module_level=True)

RATE = 3000
SECONDS = 2
STATS = f"http://{namespace.LAB_ADDR}:{bind.STATS_PORT}/json/v1/server"


def ask(name: str, port: int = bind.PORT) -> bytes:
    """One A query for `name`; its answer."""
    query = dns._query_packet(name)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2)
        sock.sendto(query, (namespace.LAB_ADDR, port))
        return sock.recv(512)


def requests() -> int:
    """named's own count of IPv4 requests, from its statistics channel."""
    with urllib.request.urlopen(STATS, timeout=2) as response:
        return json.load(response)["nsstats"].get("Requestv4", 0)


def load(tmp_path, port: int, rate: int, seconds: int) -> dict:
    """dnsperf from this host at `rate` q/s over the zone's 501 names: Kneeboard's own argv and parser."""
    spec = PointSpec(host=namespace.LAB_ADDR, port=port, concurrency=1, rate=rate, duration_s=seconds,
                     params={"names": dns.zone_names(), "timeout_s": 1, "latency_capture": False})
    done = subprocess.run(dnsperf.build(spec, tmp_path), capture_output=True, text=True, timeout=seconds + 20)
    result = dnsperf.parse(done.stdout, done.stderr, done.returncode)
    assert result.error is None, result.error
    return {**result.metrics, "rcodes": result.extra["rcodes"]}


def query_lines(path) -> int:
    """Lines named's querylog wrote (dnsperf's queries and the restart's few readiness probes)."""
    return sum(": query: " in line for line in path.read_text().splitlines()) if path.exists() else 0


def test_up_runs_bind_minimal_and_answers_the_zone_with_its_addresses(lab):
    workdir, status = lab
    service = next(s for s in status.services if s["name"] == "lab-bind")
    assert service["running"] and service["config"] == "minimal" and service["port"] == bind.PORT, service
    assert actions.read_setting("lab.bind_config") == "minimal"
    for name, address in (("www.example.lab", [192, 0, 2, 10]), ("h0042.example.lab", [192, 0, 2, 43])):
        answer = ask(name)
        assert answer[2] & 0x04 and answer[3] & 0x0F == 0 and int.from_bytes(answer[6:8], "big") == 1  # AA, NOERROR, one
        assert bytes(address) in answer and bytes(address) in ask(name, 53)  # the address unbound gives it too
    assert ask("example.com")[3] & 0x0F == 5  # REFUSED: no recursion, no forwarding
    assert (workdir / "bind" / "db.example.lab").read_text() == coredns.zone_file()
    assert not (workdir / "bind" / bind.QUERY_LOG).exists()


def test_a_dnsperf_point_completes_without_loss_and_named_counts_it(lab, tmp_path):
    before = requests()
    sent = load(tmp_path, bind.PORT, RATE, SECONDS)
    counted = requests() - before
    print(f"\nfigures: BIND minimal, one client at {RATE} q/s for {SECONDS} s: dnsperf sent {sent['sent']:.0f}, achieved "
          f"{sent['achieved_rate']:.0f} q/s, lost {sent['lost']:.0f}, rcodes {sent['rcodes']}; named's statistics "
          f"channel counted {counted} ({100 * (counted - sent['sent']) / sent['sent']:+.2f} %)")
    assert sent["lost"] == 0 and sent["rcodes"] == {"NOERROR": sent["completed"]} and sent["completed"] == sent["sent"]
    assert sent["achieved_rate"] >= 0.95 * RATE
    assert abs(counted - sent["sent"]) <= 0.01 * sent["sent"]


def test_the_query_log_is_a_variant_written_on_disk_and_off_by_default(lab, tmp_path):
    workdir, _ = lab
    querylog = workdir / "bind" / bind.QUERY_LOG
    assert not querylog.exists()  # minimal: the point above wrote nothing
    try:
        assert actions.apply_setting("lab.bind_config", "querylog") == "querylog"
        sent = load(tmp_path, bind.PORT, 1000, 1)
        assert sent["sent"] <= query_lines(querylog) <= sent["sent"] + 5, (query_lines(querylog), sent["sent"])  # a line each
    finally:
        assert actions.apply_setting("lab.bind_config", "minimal") == "minimal"
    assert not querylog.exists()  # emptied at each start
    load(tmp_path, bind.PORT, 1000, 1)
    assert not querylog.exists()


def test_a_campaign_empties_the_query_log_before_each_point_and_named_keeps_logging(stack, lab):
    workdir, _ = lab
    body = next(t for t in namespace.targets() if t["name"] == "lab-bind")
    existing = [t["id"] for t in stack.api.get("/api/v1/targets").json() if t["name"] == "lab-bind"]
    target_id = existing[0] if existing else stack.api.post("/api/v1/targets", json=body).json()["id"]
    plan = {
        "name": "bind query log", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
        "params": {"names": [f"h{i:04d}.example.lab" for i in range(10)], "qtype": "A", "timeout_s": 2},
        "phases": [{"kind": "saturation", "concurrency": 1, "rate": {"start": 500, "stop": 1500, "step": 500}, "duration_s": 1}],
        "variants": [{"label": "querylog", "set": {"lab.bind_config": "querylog"}}],
    }  # fmt: skip
    querylog = workdir / "bind" / bind.QUERY_LOG
    campaign, points = run(stack, plan)
    assert campaign["status"] == "completed", [p["error"] for p in points]
    assert not querylog.exists()  # minimal again after the campaign (restarted: the last point's log went with it)
    points = sorted(points, key=lambda p: p["offered_rate"])
    line = len("27-Nov-2026 04:00:00.000 client @0x7f0000000000 10.77.0.1#40000 (h0001.example.lab): query: "
               "h0001.example.lab IN A + (10.77.0.2)\n")
    first = points[0]["extra"].get("lab_query_log_emptied")  # the variant's restart had just emptied it
    assert first is None or first["bytes"] < 10 * line  # at most its readiness probes
    for before, point in zip(points, points[1:]):  # what each point found: the previous point's queries only
        emptied, queries = point["extra"]["lab_query_log_emptied"], before["metrics"]["sent"]
        print(f"\nfigures: BIND querylog, before the {point['offered_rate']:.0f} q/s point: emptied {emptied['bytes']} "
              f"bytes after the previous point's {queries:.0f} queries ({emptied['bytes'] / queries:.0f} B/query)")
        assert emptied["service"] == "lab-bind" and emptied["file"] == str(querylog)
        assert 0.8 * line * queries <= emptied["bytes"] <= 1.2 * line * queries
    facts = campaign["environment"]["variants"]["querylog"]
    assert facts["setting.lab.bind_config"] == "querylog" and facts["lab.bind.config"] == "querylog"
    assert facts["tool.named"].startswith("9.18")
    assert campaign["environment"]["restored"] == {"lab.bind_config": "minimal"}


@pytest.mark.parametrize(("action", "config", "service", "port"), [
    ("lab.bind_config", "querylog", bind.SERVICE, bind.PORT),
    ("lab.coredns_config", "log_file", coredns.SERVICE, coredns.PORT),
    ("lab.adguard_config", "querylog_on", adguard.SERVICE, adguard.PORT),
])  # fmt: skip
def test_each_lab_query_log_is_emptied_in_place_while_its_server_runs_and_keeps_logging(lab, tmp_path, action, config, service, port):
    if namespace.service_record(service).get("error"):
        pytest.skip(namespace.service_record(service)["error"])
    workdir, _ = lab
    path = workdir / querylogs.QUERY_LOGS[service]
    record = namespace.service_record(service)
    try:
        assert actions.apply_setting(action, config) == config
        record = namespace.service_record(service)
        load(tmp_path, port, 2000, 1)  # > 1000 answers: AdGuard flushes every 1000 entries
        size = path.stat().st_size
        emptied = querylogs.empty_before_point(namespace.LAB_ADDR, port)
        assert emptied == {"service": service, "file": str(path), "bytes": size} and size > 0
        assert path.stat().st_size < 0.01 * size  # at most a line or two written since
        load(tmp_path, port, 2000, 1)
        after = path.stat().st_size
        print(f"\nfigures: {service} {config}: emptied {size} bytes in place; {after} bytes logged after it")
        assert after > 0.4 * size  # still logging, from the new end (a hole of the old size would read as NULs)
        assert b"\0" not in path.read_bytes()
        assert processes.is_alive(record["pid"], record["started"])  # the same process throughout
    finally:
        actions.apply_setting(action, actions.defaults([action])[action])


def test_lab_down_stops_bind(lab):
    workdir, _ = lab
    record = namespace.service_record("lab-bind")
    assert processes.is_alive(record["pid"], record["started"])
    namespace.down()
    assert not processes.is_alive(record["pid"], record["started"])
    assert not (workdir / "bind").exists()
    with pytest.raises(OSError):
        ask("www.example.lab")
