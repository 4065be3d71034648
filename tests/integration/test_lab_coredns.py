"""The lab's CoreDNS (issue 36): a real CoreDNS v1.15.0 in netns kblab serving example.lab from a zone file, its
configurations switched by the variant action lab.coredns_config, its own request counter on :9153 agreeing with
dnsperf, and `minimal` back after a campaign, a lab restart or a worker's start (root + a built CoreDNS needed)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from kneeboard.lab import actions, coredns, dns, namespace, processes
from kneeboard.runs.variants import lab_settings_before

from tests.integration.conftest import lab_target, skip_without_lab
from tests.integration.test_lab_campaigns import run

skip_without_lab()
if coredns.binary() is None:
    pytest.skip(coredns.missing_reason(), allow_module_level=True)

METRICS = f"http://{namespace.LAB_ADDR}:{coredns.METRICS_PORT}/metrics"


def scrape() -> dict[str, float]:
    """CoreDNS's own figures: requests (all zones and protocols summed) and its process start time."""
    with urllib.request.urlopen(METRICS, timeout=2) as response:
        text = response.read().decode()
    found = {"requests": 0.0}
    for family in text_string_to_metric_families(text):
        if family.name == "coredns_dns_requests":
            found["requests"] += sum(s.value for s in family.samples if s.name == "coredns_dns_requests_total")
        elif family.name == "process_start_time_seconds":
            found["started"] = family.samples[0].value
    return found


class Watcher(threading.Thread):
    """Every 10 ms: the configuration CoreDNS runs, its request counter and both log files' sizes, per CoreDNS process
    (a configuration is a restart, and a restart starts the counter again). The next variant restarts CoreDNS within
    milliseconds of a variant's last point, so the last reading may miss that point's last ~10 ms of queries."""

    def __init__(self, folder: Path):
        super().__init__(daemon=True)
        self.folder, self.stop, self.by_process = folder, threading.Event(), {}

    def run(self) -> None:
        while not self.stop.wait(0.01):
            config = actions.read_setting("lab.coredns_config")
            try:
                figures = scrape()
            except OSError:
                continue  # between two configurations
            seen = self.by_process.setdefault(figures["started"], {"config": None, "first": self._sizes()})
            seen.update(requests=figures["requests"], last=self._sizes())
            if config:  # None for a moment while a restarted CoreDNS answers before the state file names it
                seen["config"] = config

    def _sizes(self) -> dict[str, int]:
        return {name: (self.folder / name).stat().st_size if (self.folder / name).exists() else 0
                for name in (coredns.QUERY_LOG, coredns.SERVER_LOG)}


def test_up_runs_coredns_minimal_and_answers_the_zone(lab):
    _, status = lab
    service = next(s for s in status.services if s["name"] == "lab-coredns")
    assert service["running"] and service["config"] == "minimal" and service["port"] == coredns.PORT, service
    assert actions.read_setting("lab.coredns_config") == "minimal"
    query = dns._query_packet("h0042.example.lab")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2)
        sock.sendto(query, (namespace.LAB_ADDR, coredns.PORT))
        answer = sock.recv(512)
    assert answer[3] & 0x0F == 0 and int.from_bytes(answer[6:8], "big") == 1  # NOERROR, one answer
    assert bytes([192, 0, 2, 43]) in answer  # the address unbound gives h0042 too
    target = next(t for t in namespace.targets() if t["name"] == "lab-coredns")
    assert "log_file" in target["notes"] and target["exporters"][0]["url"] == METRICS


def test_minimal_vs_log_file_campaign(stack, lab):
    workdir, _ = lab
    plan = {
        "name": "coredns logging", "tool": "dnsperf", "target_id": lab_target(stack, coredns.SERVICE), "pause_s": 0,
        "params": {"names": ["www.example.lab", "h0001.example.lab"], "qtype": "A", "timeout_s": 2},
        "phases": [{"kind": "saturation", "concurrency": 2, "rate": {"start": 2000, "stop": 4000, "step": 2000}, "duration_s": 2},
                   {"kind": "stability", "concurrency": 2, "rate": 1000, "duration_s": 2}],  # a slow last point: see Watcher
        "variants": [{"label": "log_file", "set": {"lab.coredns_config": "log_file"}},
                     {"label": "minimal", "set": {}}],  # sets nothing, so runs the default, not what log_file left
    }  # fmt: skip
    watcher = Watcher(workdir / "coredns")
    watcher.start()
    try:
        campaign, points = run(stack, plan)
    finally:
        watcher.stop.set()
        watcher.join()
    assert campaign["status"] == "completed", [p["error"] for p in points]
    sent = {label: sum(p["metrics"]["sent"] for p in points if p["variant"] == label) for label in ("minimal", "log_file")}
    processes_seen = {label: [p for p in watcher.by_process.values() if p["config"] == label] for label in sent}
    for label, seen in processes_seen.items():
        assert len(seen) >= 1, watcher.by_process
        counted = max(p["requests"] for p in seen)  # the process that served the variant's points
        print(f"\nfigures: CoreDNS {label}: dnsperf sent {sent[label]:.0f}, CoreDNS counted {counted:.0f} "
              f"({100 * (counted - sent[label]) / sent[label]:+.2f} %)")
        assert abs(counted - sent[label]) <= 0.02 * sent[label]
    # the query log is emptied before each point (what it held is on the point): a line per query, only under log_file
    ordered = sorted(points, key=lambda p: p["seq"])
    emptied = [(p["extra"].get("lab_query_log_emptied") or {}).get("bytes") for p in ordered]
    for before, after in zip(ordered, emptied[1:]):
        if before["variant"] == "log_file":
            assert after > 50 * before["metrics"]["sent"], (before["metrics"]["sent"], emptied)
        else:
            assert after == 0, emptied
    facts = campaign["environment"]["variants"]
    for label in ("minimal", "log_file"):
        assert facts[label]["setting.lab.coredns_config"] == label and facts[label]["lab.coredns.config"] == label
        assert facts[label]["tool.coredns"] == coredns.VERSION.lstrip("v")
    assert campaign["environment"]["restored"] == {"lab.coredns_config": "minimal"}
    assert actions.read_setting("lab.coredns_config") == "minimal"


def test_lab_up_and_campaign_start_come_back_to_minimal(lab):
    workdir, _ = lab
    assert actions.apply_setting("lab.coredns_config", "log_discard") == "log_discard"  # a variant a crash left on
    assert lab_settings_before({"variants": [{"label": "x", "set": {"lab.coredns_config": "log_file"}}]}) == {
        "lab.coredns_config": "minimal"}  # the next campaign restores the default, not what it found
    namespace.up(workdir)
    assert actions.read_setting("lab.coredns_config") == "minimal"
    assert namespace.service_record("lab-coredns")["config"] == "minimal"


def test_a_worker_start_puts_the_default_back_when_its_setter_died(stack, lab):
    from kneeboard.db import session_scope
    from kneeboard.runs.lab_reset import reset_lab_defaults

    assert actions.apply_setting("lab.coredns_config", "log_file") == "log_file"  # set by this process, still alive
    with session_scope() as session:
        assert reset_lab_defaults(session=session) == {}  # it may still need it: another stack's worker must not undo it
    die = "from kneeboard.lab import actions; actions.apply_setting('lab.coredns_config', 'log_discard')"
    subprocess.run([sys.executable, "-c", die], check=True, timeout=60)  # a worker that set a variant, then died
    assert actions.read_setting("lab.coredns_config") == "log_discard"
    with session_scope() as session:
        assert reset_lab_defaults(session=session) == {"lab.coredns_config": "minimal"}
    assert actions.read_setting("lab.coredns_config") == "minimal"
    with session_scope() as session:
        assert reset_lab_defaults(session=session) == {}  # already at its default: no restart


def test_a_bad_configuration_is_refused_and_a_missing_coredns_is_a_clear_failure(stack, lab, monkeypatch):
    target_id = next(t["id"] for t in stack.api.get("/api/v1/targets").json() if t["name"] == "lab-coredns")
    plan = {"name": "bad", "tool": "dnsperf", "target_id": target_id, "params": {"names": ["www.example.lab"]},
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}],
            "variants": [{"label": "loud", "set": {"lab.coredns_config": "verbose"}}]}
    refused = stack.api.post("/api/v1/plans", json=plan)
    assert refused.status_code == 422, refused.text
    detail = refused.json()["detail"][0]
    assert detail["loc"][-2:] == ["set", "lab.coredns_config"] and "expected one of minimal, log_discard, log_file" in detail["msg"]
    record = namespace.service_record("lab-coredns")
    monkeypatch.setattr(coredns, "BINARY", Path("/nonexistent/coredns"))
    with pytest.raises(actions.ActionFailed, match="not built"):
        actions.apply_setting("lab.coredns_config", "log_file")
    assert processes.is_alive(record["pid"], record["started"])  # the running minimal is kept
