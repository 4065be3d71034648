"""Lab pieces that run nothing: the nginx site, the targets it offers, status without iproute2, PID identity."""

from __future__ import annotations

import os

from kneeboard.lab import namespace, nginx, processes


def test_index_is_590_bytes():
    assert len(nginx.index_body()) == 590


def test_nginx_config_and_site(tmp_path):
    conf = nginx.write_site("10.77.0.2", 80, tmp_path)
    text = conf.read_text()
    assert "listen 10.77.0.2:80;" in text
    assert "access_log off;" in text and "worker_processes auto;" in text and "daemon off;" in text
    assert f"pid {tmp_path / 'nginx.pid'};" in text
    assert "limit_rate 1000;" in text
    assert (tmp_path / "www" / "index.html").stat().st_size == 590
    assert (tmp_path / "www" / "slow" / "3k.html").stat().st_size == 3000
    argv = nginx.nginx_argv("/usr/sbin/nginx", tmp_path)
    assert argv[0] == "/usr/sbin/nginx" and "-c" in argv and "-e" in argv


def test_targets_only_lab_addresses():
    kinds = {t["kind"]: t for t in namespace.targets() if t["name"] not in ("lab-https", "lab-coredns", "lab-coredns-shipped", "lab-adguard", "lab-bind",
                                                                       "lab-haproxy", "lab-caddy", "lab-nginx-lb")}
    assert set(kinds) == {"dns", "http", "net", "device"}
    assert all(t["host"] == "10.77.0.2" and t["tags"] == ["lab"] for t in namespace.targets())
    assert (kinds["dns"]["port"], kinds["http"]["port"], kinds["net"]["port"]) == (53, 80, 5201)
    assert [(t["kind"], t["port"]) for t in namespace.targets() if t["name"] == "lab-https"] == [("http", 443)]
    assert [(t["kind"], t["port"]) for t in namespace.targets() if t["name"] == "lab-coredns"] == [("dns", 5300)]
    assert [(t["kind"], t["port"]) for t in namespace.targets() if t["name"] == "lab-adguard"] == [("dns", 5301)]
    assert [(t["kind"], t["port"]) for t in namespace.targets() if t["name"] == "lab-bind"] == [("dns", 5302)]
    assert all(t["metrics_url"] == "http://10.77.0.2:9100/metrics" for t in kinds.values())  # the lab's node_exporter


def test_status_without_ip(monkeypatch):
    monkeypatch.setattr(namespace, "which", lambda tool: None)
    lab = namespace.status()
    assert lab.present is False and "ip not installed" in lab.reason


def test_up_refuses_without_prerequisites(monkeypatch, tmp_path):
    monkeypatch.setattr(namespace, "is_root", lambda: False)
    try:
        namespace.up(tmp_path)
    except namespace.LabError as exc:
        assert "not root" in str(exc)
    else:
        raise AssertionError("up() must refuse without root")


def test_process_identity():
    me = os.getpid()
    started = processes.start_time(me)
    assert processes.is_alive(me, started)
    assert not processes.is_alive(me, started + 1)  # same PID, different process
    assert not processes.is_alive(None, None)


def test_the_https_listener_has_a_generated_certificate_a_plan_can_trust(tmp_path):
    import subprocess

    from kneeboard.tools.kbhttp.params import KbhttpParams

    text = nginx.write_site("10.77.0.2", 80, tmp_path, tls_port=443).read_text()
    assert "listen 10.77.0.2:443 ssl;" in text and f"ssl_certificate {tmp_path / 'tls' / 'cert.pem'};" in text
    assert "ssl_session_tickets on;" in text, "clients may resume sessions"
    names = subprocess.run(["openssl", "x509", "-noout", "-ext", "subjectAltName", "-in", str(tmp_path / "tls" / "cert.pem")],
                           capture_output=True, text=True, check=True).stdout
    assert "DNS:www.example.lab" in names and "IP Address:10.77.0.2" in names
    pem = nginx.certificate_pem(tmp_path)
    assert KbhttpParams.model_validate({"scheme": "https", "ca_pem": pem}).ca_pem == pem, "its PEM is what a plan's ca_pem takes"
    assert nginx.certificate_pem(tmp_path / "none") is None
