"""Kneeboard's own TLS check before a dot or doh point (dnsperf 2.10 does not verify), against a real TLS listener on
loopback with a certificate made for it; and the lab CoreDNS's TLS server blocks and certificate."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


from kneeboard.lab import coredns, namespace, nginx
from kneeboard.runs import tls_check
from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec, ToolInputError

from tests.support.tls_server import TlsServer


def spec(port: int, mode: str = "dot", host_name: str | None = None, **trust) -> PointSpec:
    return PointSpec("127.0.0.1", 5300, 2, 100.0, 1, {"mode": mode, "port": port, **trust}, host_name=host_name)


def test_a_self_signed_certificate_fails_against_the_system_bundle(tmp_path):
    with TlsServer(tmp_path) as server:
        checked = tls_check.check(dnsperf.ADAPTER, spec(server.port))
    assert checked.record is None and checked.warnings == []
    assert checked.refused == (f"TLS certificate at 127.0.0.1:{server.port} (as 127.0.0.1, trusting the system's CA bundle) "
                               "failed verification: self-signed certificate; dnsperf does not verify certificates itself, "
                               "so Kneeboard does and the point was not run")


def test_a_trusted_certificate_verifies_by_address_and_by_name_and_a_wrong_name_fails(tmp_path, monkeypatch):
    with TlsServer(tmp_path) as server:
        monkeypatch.setattr(tls_check, "trust", lambda address, ca_pem=None: (server.pem, "a test CA"))
        by_address = tls_check.check(dnsperf.ADAPTER, spec(server.port, "doh"))
        by_name = tls_check.check(dnsperf.ADAPTER, spec(server.port, "dot", host_name="www.example.lab"))
        wrong = tls_check.check(dnsperf.ADAPTER, spec(server.port, "dot", host_name="other.example.lab"))
    assert by_address.refused is None and by_name.refused is None
    record = by_name.record
    assert record["name"] == "www.example.lab" and record["address"] == "127.0.0.1" and record["port"] == server.port
    assert record["trusted"] == "a test CA" and record["tls_version"].startswith("TLSv1.")
    assert record["subject"] == record["issuer"] == "commonName=www.example.lab" and record["not_after"]
    assert by_address.record["name"] == "127.0.0.1"
    assert by_name.warnings == [f"dnsperf does not verify the server's certificate itself (dnsperf 2.10: no verification, no SNI); "
                                f"Kneeboard verified it once before the point: 127.0.0.1:{server.port} (as www.example.lab, "
                                f"trusting a test CA), {record['tls_version']}, valid until {record['not_after']}"]
    assert "failed verification: Hostname mismatch, certificate is not valid for 'other.example.lab'" in wrong.refused


def test_the_plans_ca_bundle_is_trusted_and_skip_verify_is_said_on_the_point(tmp_path):
    with TlsServer(tmp_path) as server, TlsServer(tmp_path / "other") as other:
        by_plan = tls_check.check(dnsperf.ADAPTER, spec(server.port, "dot", "www.example.lab", ca_pem=server.pem))
        wrong_ca = tls_check.check(dnsperf.ADAPTER, spec(server.port, "doh", ca_pem=other.pem))
        skipped = tls_check.check(dnsperf.ADAPTER, spec(server.port, "doh", tls_skip_verify=True))
    assert by_plan.refused is None and by_plan.record["trusted"] == tls_check.PLAN_CA and by_plan.record["verified"] is True
    assert "(as www.example.lab, trusting the plan's CA bundle (ca_pem))" in by_plan.warnings[0]
    assert "failed verification" in wrong_ca.refused and "trusting the plan's CA bundle (ca_pem)" in wrong_ca.refused
    assert skipped.refused is None and skipped.record["verified"] is False and skipped.record["trusted"] == tls_check.NOBODY
    assert skipped.warnings == [f"TLS certificate verification was skipped (tls_skip_verify): neither dnsperf nor Kneeboard "
                                f"checked the server's identity at 127.0.0.1:{server.port} ({skipped.record['tls_version']})"]


def test_tls_trust_is_for_dot_and_doh_only_and_not_both(tmp_path):
    pem = nginx.generate_certificate("127.0.0.1", tmp_path)[0].read_text()
    for params, why in (({"mode": "udp", "ca_pem": pem}, "ca_pem is for modes dot and doh (mode is udp)"),
                        ({"mode": "tcp", "tls_skip_verify": True}, "tls_skip_verify is for modes dot and doh (mode is tcp)"),
                        ({"mode": "dot", "ca_pem": pem, "tls_skip_verify": True}, "give a CA bundle or skip verification, not both"),
                        ({"mode": "dot", "ca_pem": "/etc/ssl/certs/ca.pem"}, "String should match pattern")):
        with pytest.raises(ToolInputError, match=re.escape(why)):
            dnsperf.ADAPTER.read_params(params)
    assert dnsperf.ADAPTER.read_params({"mode": "doh", "ca_pem": pem}).ca_pem == pem


def test_nothing_listening_refuses_the_point_and_udp_is_not_checked(tmp_path):
    with TlsServer(tmp_path) as server:
        port = server.port
    closed = tls_check.check(dnsperf.ADAPTER, spec(port))
    assert closed.refused.startswith(f"TLS check of 127.0.0.1:{port} (as 127.0.0.1, trusting the system's CA bundle) before the point failed: ")
    assert "refused" in closed.refused
    assert tls_check.check(dnsperf.ADAPTER, spec(port, "tcp")) == tls_check.Checked()
    assert tls_check.check(dnsperf.ADAPTER, PointSpec("127.0.0.1", 53, 1, 1.0, 1, {"mode": "nope"})) == tls_check.Checked()


def test_the_lab_address_trusts_the_labs_certificates_and_others_the_system(tmp_path, monkeypatch):
    monkeypatch.setattr(namespace, "lab_workdir", lambda: tmp_path)
    assert tls_check.trust(namespace.LAB_ADDR) == (None, tls_check.SYSTEM_CA)  # no lab here: nothing of its to trust
    coredns.write_configs(namespace.LAB_ADDR, tmp_path / "coredns")
    nginx.generate_certificate(namespace.LAB_ADDR, tmp_path / "http" / "tls")
    pem, trusted = tls_check.trust(namespace.LAB_ADDR)
    assert trusted == tls_check.LAB_CA and pem.count("BEGIN CERTIFICATE") == 2
    assert pem == coredns.certificate_pem(tmp_path / "coredns") + nginx.certificate_pem(tmp_path / "http")
    assert tls_check.trust("192.0.2.1") == (None, tls_check.SYSTEM_CA)


def test_every_coredns_configuration_serves_dot_and_doh_with_the_certificate(tmp_path):
    for config in coredns.CONFIGS:
        text = coredns.corefile("10.77.0.2", Path("/lab/coredns"), config)
        blocks = text.split("}\n")[:-1]
        assert [b.splitlines()[0] for b in blocks] == ["example.lab:5300 {", "tls://example.lab:853 {", "https://example.lab:8443 {"]
        tls = "    tls /lab/coredns/tls/cert.pem /lab/coredns/tls/key.pem"
        assert [tls in b for b in blocks] == [False, True, True]
        assert len({b.split("\n", 1)[1].replace(tls + "\n", "") for b in blocks}) == 1  # the same plugins in each
    coredns.write_configs("10.77.0.2", tmp_path)
    pem = coredns.certificate_pem(tmp_path)
    coredns.write_configs("10.77.0.2", tmp_path)
    assert pem and coredns.certificate_pem(tmp_path) == pem  # kept while it lasts


def test_a_certificate_about_to_expire_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setattr(nginx, "CERT_DAYS", 1)  # valid for a day: inside the renewal margin
    coredns.write_configs("10.77.0.2", tmp_path)
    short = coredns.certificate_pem(tmp_path)
    monkeypatch.setattr(nginx, "CERT_DAYS", 30)
    coredns.write_configs("10.77.0.2", tmp_path)
    assert coredns.certificate_pem(tmp_path) != short
