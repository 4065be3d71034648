"""kbhttp over TLS for real: nginx with the lab's https listener (its generated certificate) on 127.0.0.1,
a campaign through the API (Celery worker → kbhttp → nginx → Postgres), a certificate that fails
verification as a clear point error, and wrk against the same listener."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kneeboard.lab import nginx
from kneeboard.stack import free_port
from kneeboard.tools import runner, wrk
from kneeboard.tools.base import PointSpec
from tests.integration.test_campaign_run import wait_status

pytestmark = pytest.mark.tools


@contextlib.contextmanager
def tls_nginx() -> Iterator[tuple[int, str]]:
    """nginx serving the lab's site over https on a free loopback port; yields (port, its certificate's PEM)."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        pytest.skip("nginx is not installed")
    work = Path(tempfile.mkdtemp(prefix="kb-tls-nginx-"))
    work.chmod(0o755)  # nginx workers (nobody) read the site
    port = free_port()
    nginx.write_site("127.0.0.1", free_port(), work, tls_port=port)
    server = subprocess.Popen(nginx.nginx_argv(binary, work), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}"], input="", capture_output=True).returncode:
            assert time.monotonic() < deadline and server.poll() is None, "nginx did not listen"
            time.sleep(0.1)
        yield port, nginx.certificate_pem(work)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def run_plan(stack, target_id: int, params: dict) -> tuple[dict, dict]:
    """One kbhttp point (200 req/s, 4 connections, 2 s) against the target; (campaign, point)."""
    plan = {"name": "https", "tool": "kbhttp", "target_id": target_id, "params": {"path": "/index.html", **params},
            "phases": [{"kind": "stability", "concurrency": 4, "rate": 200, "duration_s": 2}], "pause_s": 0}  # fmt: skip
    created = stack.api.post("/api/v1/plans", json=plan)
    assert created.status_code == 201, created.text
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
    return campaign, stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]


def test_an_https_point_counts_handshakes_and_stores_percentiles_and_a_bad_certificate_is_a_point_error(stack, tmp_path):
    stranger = nginx.generate_certificate("127.0.0.1", tmp_path / "stranger")[0].read_text()  # not the server's
    with tls_nginx() as (port, pem):
        target = stack.api.post("/api/v1/targets", json={"name": f"tls-nginx-{port}", "kind": "http", "host": "127.0.0.1", "port": port})
        assert target.status_code == 201, target.text
        campaign, point = run_plan(stack, target.json()["id"], {"scheme": "https", "ca_pem": pem})
        refused_campaign, refused = run_plan(stack, target.json()["id"], {"scheme": "https", "ca_pem": stranger})
    m = point["metrics"]
    assert campaign["status"] == "completed" and point["status"] == "completed", point["error"]
    assert m["completed"] == m["sent"] == 400 - m["dropped"] >= 380 and m["errors"] == 0  # a loaded machine may leave a few unsent
    assert 1 <= m["handshakes"] <= 4 and m["handshakes_resumed"] <= m["handshakes"], "one handshake per connection at most"
    assert 0 < m["service_p50_ms"] <= m["latency_p50_ms"] <= m["latency_p99_ms"] and m["lateness_p50_ms"] is not None
    assert point["extra"]["tls"] == {"server_name": "127.0.0.1", "verify": "ca-bundle", "resumption": True}
    assert refused_campaign["status"] == "failed" and refused["status"] == "failed"
    assert refused["error"].startswith("TLS handshake failed, no responses") and "certificate" in refused["error"], refused["error"]
    print(f"\nhttps 200 req/s: p50 {m['latency_p50_ms']} ms (service {m['service_p50_ms']} ms), {m['handshakes']:.0f} handshakes "
          f"({m['handshakes_resumed']:.0f} resumed); refused: {refused['error'][:120]}")


def test_wrk_loads_the_https_listener_too(tmp_path):
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed")
    with tls_nginx() as (port, _):
        spec = PointSpec("127.0.0.1", port, 2, None, 1, {"scheme": "https", "threads": 1, "path": "/index.html"})
        result = wrk.ADAPTER.read(runner.run(wrk.build(spec, tmp_path), timeout_s=20, cwd=tmp_path, stop_signal=wrk.ADAPTER.stop_signal))
    assert result.error is None and result.metrics["completed"] > 100 and result.metrics["errors"] == 0, result
