"""The lab's AdGuard Home (issue 36): a real AdGuard Home v0.107.79 in netns kblab forwarding to the lab's unbound, with
the configuration Kneeboard writes: one client (this host) at 3,000 q/s is neither dropped nor refused (its default rate
limit of 20 q/s per client would drop ~99 % of it), its own /control/stats counts what dnsperf sent, and its query-log
configuration is a variant action (root + a built AdGuard Home needed)."""

from __future__ import annotations

import json
import socket
import stat
import subprocess
import urllib.error
import urllib.request

import pytest
import yaml

from kneeboard.lab import actions, adguard, dns, namespace
from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec

from tests.integration.conftest import skip_without_lab

skip_without_lab()
if adguard.binary() is None:
    pytest.skip(adguard.missing_reason(), allow_module_level=True)

RATE = 3000
SECONDS = 3


def ask(name: str) -> bytes:
    """One A query for `name` to AdGuard Home; its answer."""
    query = dns._query_packet(name)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(2)
        sock.sendto(query, (namespace.LAB_ADDR, adguard.PORT))
        return sock.recv(512)


def stats(workdir) -> dict:
    """AdGuard's own counters, read with the generated user."""
    return adguard.api(namespace.LAB_ADDR, workdir / "adguard", "/control/stats")


def load(tmp_path, rate: int, seconds: int) -> dict:
    """dnsperf from this host (one client) at `rate` q/s over the zone's 501 names: Kneeboard's own argv and parser."""
    spec = PointSpec(host=namespace.LAB_ADDR, port=adguard.PORT, concurrency=1, rate=rate, duration_s=seconds,
                     params={"names": dns.zone_names(), "timeout_s": 1, "latency_capture": False})
    done = subprocess.run(dnsperf.build(spec, tmp_path), capture_output=True, text=True, timeout=seconds + 20)
    result = dnsperf.parse(done.stdout, done.stderr, done.returncode)
    assert result.error is None, result.error
    return {**result.metrics, "rcodes": result.extra["rcodes"]}


def test_up_runs_adguard_with_kneeboards_configuration_and_answers_through_unbound(lab):
    workdir, status = lab
    service = next(s for s in status.services if s["name"] == "lab-adguard")
    assert service["running"] and service["config"] == "querylog_off" and service["port"] == adguard.PORT, service
    answer = ask("h0042.example.lab")
    assert answer[3] & 0x0F == 0 and int.from_bytes(answer[6:8], "big") == 1  # NOERROR, one answer
    assert bytes([192, 0, 2, 43]) in answer  # unbound's address for h0042
    folder = workdir / "adguard"
    on_disk = yaml.safe_load((folder / adguard.CONFIG_FILE).read_text())  # as AdGuard wrote it back at its start
    assert on_disk["dns"]["ratelimit"] == 0 and on_disk["dns"]["upstream_dns"] == [f"{namespace.LAB_ADDR}:53"]
    assert on_disk["filters"] == [] and on_disk["querylog"]["enabled"] is False and on_disk["schema_version"] == 34
    assert stat.S_IMODE((folder / adguard.PASSWORD_FILE).stat().st_mode) == 0o600
    assert actions.read_setting("lab.adguard_config") == "querylog_off"  # read from its API
    assert adguard.api(namespace.LAB_ADDR, folder, "/control/status")["version"] == adguard.VERSION
    with pytest.raises(urllib.error.HTTPError, match="401|403"):  # the API wants the generated user
        urllib.request.urlopen(f"http://{namespace.LAB_ADDR}:{adguard.HTTP_PORT}/control/stats", timeout=2)


def test_one_client_at_3000_qps_is_neither_limited_nor_refused_and_adguard_counts_it(lab, tmp_path):
    workdir, _ = lab
    before = stats(workdir)["num_dns_queries"]
    sent = load(tmp_path, RATE, SECONDS)
    counted = stats(workdir)["num_dns_queries"] - before
    print(f"\nfigures: AdGuard Home {adguard.VERSION}, one client at {RATE} q/s for {SECONDS} s: dnsperf sent "
          f"{sent['sent']:.0f}, achieved {sent['achieved_rate']:.0f} q/s, lost {sent['lost']:.0f}, rcodes {sent['rcodes']}; "
          f"AdGuard's /control/stats counted {counted} ({100 * (counted - sent['sent']) / sent['sent']:+.2f} %)")
    assert sent["rcodes"] == {"NOERROR": sent["completed"]}  # no REFUSED, no SERVFAIL
    assert sent["lost"] <= 0.001 * sent["sent"]  # a rate limit drops silently: it would show here
    assert sent["achieved_rate"] >= 0.95 * RATE
    assert abs(counted - sent["sent"]) <= 0.01 * sent["sent"]


def test_the_query_log_is_a_variant_written_on_disk_and_off_by_default(lab, tmp_path):
    workdir, _ = lab
    querylog = workdir / "adguard" / "data" / "querylog.json"
    assert not querylog.exists()  # querylog_off: nothing written by the test above
    try:
        assert actions.apply_setting("lab.adguard_config", "querylog_on") == "querylog_on"
        assert namespace.service_record("lab-adguard")["config"] == "querylog_on"
        sent = load(tmp_path, 2000, 1)  # > 1000 answers: AdGuard flushes its log every 1000 entries
        questions = [json.loads(line)["QH"] for line in querylog.read_text().splitlines()]
        logged = sum(name != f"www.{dns.ZONE}" for name in questions)  # not the restart's readiness probes
        # the first flush holds 1,000 entries, the restart's probes among them (998 of dnsperf's in one make test run)
        assert len(questions) >= 1000 and len(questions) - logged <= 50 and logged <= sent["sent"], (len(questions), logged, sent["sent"])
    finally:
        assert actions.apply_setting("lab.adguard_config", "querylog_off") == "querylog_off"
    assert not querylog.exists()  # emptied at each start
