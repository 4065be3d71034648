"""A real Prometheus (Debian's package) for the PromQL tests: its own data directory, a loopback port, scraping the
given exporters every second; optionally behind HTTP basic authentication (its web config) and with its
remote-write receiver. Ended by PID."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import bcrypt
import httpx
import pytest

from kneeboard.stack import free_port

PROMETHEUS = "/usr/bin/prometheus"
NODE_EXPORTER = "/usr/bin/prometheus-node-exporter"


def _wait(url: str, proc: subprocess.Popen, auth: tuple[str, str] | None = None, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}")
        try:
            if httpx.get(url, auth=auth, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} never answered")


class Prometheus:
    """`prometheus` scraping `targets` ({job: ["host:port", …]}) every second, on 127.0.0.1:port."""

    def __init__(self, workdir: Path, targets: dict[str, list[str]], *, user: tuple[str, str] | None = None,
                 remote_write: bool = False) -> None:
        if not shutil.which(PROMETHEUS):
            pytest.skip("prometheus is not installed (scripts/install-deps.sh test)")
        workdir.mkdir(parents=True, exist_ok=True)
        self.port, self.user = free_port(), user
        self.url = f"http://127.0.0.1:{self.port}"
        jobs = "".join(f"  - job_name: {job}\n    static_configs:\n      - targets: [{', '.join(repr(t) for t in hosts)}]\n"
                       for job, hosts in targets.items())
        (workdir / "prometheus.yml").write_text(f"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:{chr(10) + jobs if jobs else ' []'}\n")
        argv = [PROMETHEUS, f"--config.file={workdir / 'prometheus.yml'}", f"--storage.tsdb.path={workdir / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"]
        if user:
            hashed = bcrypt.hashpw(user[1].encode(), bcrypt.gensalt(rounds=4)).decode()
            (workdir / "web.yml").write_text(f"basic_auth_users:\n  {user[0]}: '{hashed}'\n")
            argv.append(f"--web.config.file={workdir / 'web.yml'}")
        if remote_write:
            argv.append("--web.enable-remote-write-receiver")
        self.log = workdir / "prometheus.log"
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"), start_new_session=True)

    def __enter__(self) -> Prometheus:
        try:
            _wait(f"{self.url}/-/ready", self.proc, self.user)
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()

    def stop(self) -> None:
        """End it by its PID."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def query(self, promql: str) -> list[dict]:
        """An instant query's result vector (the test's own check, beside Kneeboard's)."""
        answer = httpx.get(f"{self.url}/api/v1/query", params={"query": promql}, auth=self.user, timeout=10).json()
        assert answer["status"] == "success", answer
        return answer["data"]["result"]

    def wait_for(self, promql: str, count: int = 1, timeout_s: float = 20) -> list[dict]:
        """Poll until `promql` answers at least `count` series (the first scrapes are in)."""
        deadline = time.monotonic() + timeout_s
        while len(found := self.query(promql)) < count:
            assert time.monotonic() < deadline, f"{promql}: {len(found)} series after {timeout_s} s"
            time.sleep(0.2)
        return found


class NodeExporter:
    """Our own node_exporter on loopback, its textfile collector reading `textfile_dir` (a test's extra series)."""

    def __init__(self, textfile_dir: Path) -> None:
        if not shutil.which(NODE_EXPORTER):
            pytest.skip("prometheus-node-exporter is not installed")
        textfile_dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([NODE_EXPORTER, f"--web.listen-address={self.address}",
                                      f"--collector.textfile.directory={textfile_dir}"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def __enter__(self) -> NodeExporter:
        try:
            _wait(f"http://{self.address}/metrics", self.proc)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
