"""The harness benchmark: per-point overhead with and without monitors, live lag per tool, and
dnsperf through Kneeboard against dnsperf run by hand — on a private stack (Postgres, Redis,
unbound, a worker, the API) on this machine. Prints a table and writes docs/performance/harness.md.

    make bench-harness            (POINTS=8 POINT_S=2 by default)
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from kneeboard.lab.dns import start_unbound  # noqa: E402
from tests.support import services  # noqa: E402

POINTS = int(os.environ.get("POINTS", "8"))
POINT_S = int(os.environ.get("POINT_S", "2"))
FIDELITY_S = int(os.environ.get("FIDELITY_S", "5"))


def _stack(tmp: Path):
    started = []
    pg, database_url = services.start_postgres(tmp / "pg")
    started.append(pg)
    redis_proc, redis_url = services.start_redis(tmp)
    started.append(redis_proc)
    dns_port = services.free_port()
    started.append(start_unbound("127.0.0.1", dns_port, tmp / "dns"))
    token = secrets.token_urlsafe(32)
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "AGENT_NAME": "bench", "WORKDIR": str(tmp / "work"),
           "KB_ADMIN_TOKEN": token, "PYTHONPATH": str(ROOT / "backend")}  # fmt: skip
    services.migrate(env)
    started.append(services.start_worker(env, tmp))
    api, url = services.start_api(env, tmp)
    started.append(api)
    client = httpx.Client(base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"})
    services.wait_for_agent(client, "bench")
    return started, client, url, token, dns_port


def _campaign(client, target_id: int, monitors: list[dict], rate: float | None = 2000, tool: str = "dnsperf") -> dict:
    plan = {"name": f"harness {tool} {len(monitors)} monitors", "tool": tool, "target_id": target_id, "pause_s": 0, "monitors": monitors,
            "phases": [{"kind": "saturation", "concurrency": 2, "rate": [rate + i for i in range(POINTS)], "duration_s": POINT_S}]}  # fmt: skip
    plan_id = client.post("/api/v1/plans", json=plan).raise_for_status().json()["id"]
    campaign_id = client.post("/api/v1/campaigns", json={"plan_id": plan_id}).raise_for_status().json()["id"]
    arrivals: list[tuple[float, float]] = []
    listener = threading.Thread(target=_listen, args=(client, campaign_id, arrivals), daemon=True)
    listener.start()
    while (campaign := client.get(f"/api/v1/campaigns/{campaign_id}").json())["status"] not in {"completed", "failed", "cancelled", "crashed"}:
        time.sleep(0.2)
    listener.join(timeout=5)
    points = client.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    wall = (datetime.fromisoformat(campaign["ended_at"]) - datetime.fromisoformat(campaign["started_at"])).total_seconds()
    return {"campaign": campaign, "points": points, "overhead_s": (wall - POINTS * POINT_S) / POINTS, "arrivals": arrivals}


def _listen(client, campaign_id: int, arrivals: list) -> None:
    """Each live sample's own timestamp (when the tool closed the interval) and when it reached us."""
    with client.stream("GET", f"/api/v1/campaigns/{campaign_id}/events", timeout=120) as response:
        kind = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "sample":
                data = json.loads(line[6:])
                if data.get("series") == "point":
                    arrivals.append((data["t"], time.time()))
            elif kind == "end":
                return


def _by_hand(dns_port: int, rate: float, tmp: Path) -> float:
    queries = tmp / "hand-queries.txt"
    queries.write_text("www.example.lab A\n")
    done = subprocess.run(["dnsperf", "-s", "127.0.0.1", "-p", str(dns_port), "-d", str(queries), "-c", "2", "-Q", str(int(rate)),
                           "-l", str(FIDELITY_S), "-t", "5"], capture_output=True, text=True, timeout=FIDELITY_S + 30)  # fmt: skip
    return float(re.search(r"Queries per second:\s+([\d.]+)", done.stdout).group(1))


def _fidelity(client, target_id: int, dns_port: int, tmp: Path) -> list[tuple[float, float, float]]:
    rows = []
    for rate in (5_000.0, 20_000.0):
        plan = {"name": "fidelity", "tool": "dnsperf", "target_id": target_id, "pause_s": 0, "params": {"names": ["www.example.lab"]},
                "phases": [{"kind": "stability", "concurrency": 2, "rate": rate, "duration_s": FIDELITY_S}]}  # fmt: skip
        plan_id = client.post("/api/v1/plans", json=plan).raise_for_status().json()["id"]
        campaign_id = client.post("/api/v1/campaigns", json={"plan_id": plan_id}).raise_for_status().json()["id"]
        while client.get(f"/api/v1/campaigns/{campaign_id}").json()["status"] not in {"completed", "failed", "cancelled", "crashed"}:
            time.sleep(0.2)
        through = client.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]["metrics"]["achieved_rate"]
        rows.append((rate, through, _by_hand(dns_port, rate, tmp)))
    return rows


def _lag_row(what: str, lags: list[float]) -> str:
    if not lags:
        return f"| live lag {what} | no samples |"
    p95 = sorted(lags)[int(0.95 * (len(lags) - 1))]
    return f"| live lag {what}, median / p95 / max | {statistics.median(lags):.1f} / {p95:.1f} / {max(lags):.1f} ms ({len(lags)} samples) |"


def main() -> int:
    """Run the harness benchmark, print its table and write docs/performance/harness.md."""
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-harness-"))
    tmp.chmod(0o755)
    started = []
    try:
        started, client, _url, _token, dns_port = _stack(tmp)
        target = client.post("/api/v1/targets", json={"name": "bench-dns", "kind": "dns", "host": "127.0.0.1", "port": dns_port}).json()
        plain = _campaign(client, target["id"], [])
        watched = _campaign(client, target["id"], [{"kind": "mpstat"}, {"kind": "ping", "host": "127.0.0.1"}])
        lags = [(arrived - t) * 1000 for t, arrived in plain["arrivals"] + watched["arrivals"]]
        iperf_port = services.free_port()
        server = subprocess.Popen(["iperf3", "-s", "-B", "127.0.0.1", "-p", str(iperf_port)], stdout=subprocess.DEVNULL, start_new_session=True)
        started.append(server)
        net = client.post("/api/v1/targets", json={"name": "bench-iperf3", "kind": "net", "host": "127.0.0.1", "port": iperf_port}).json()
        iperf = _campaign(client, net["id"], [], rate=200e6, tool="iperf3")
        iperf_lags = [(arrived - t) * 1000 for t, arrived in iperf["arrivals"]]
        fidelity = _fidelity(client, target["id"], dns_port, tmp)
    finally:
        for proc in reversed(started):
            services.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    lines = [
        "# Harness benchmark", "",
        f"`make bench-harness` on {os.cpu_count()} CPUs, {datetime.now():%Y-%m-%d %H:%M}; {POINTS} dnsperf points of {POINT_S} s per campaign,",
        "tool, worker, API, Postgres, Redis and unbound all on this machine.", "",
        "| measure | figure |", "|---|---|",
        f"| per-point overhead, no monitors | {plain['overhead_s']:.3f} s |",
        f"| per-point overhead, mpstat + ping | {watched['overhead_s']:.3f} s |",
        _lag_row("dnsperf (interval closed → browser stream)", lags),
        _lag_row("iperf3 (interval end from the process start → browser; includes connect time)", iperf_lags),
        "| live lag wrk | no live samples: wrk reports at the end; the UI says it shows progress only |",
        *(f"| dnsperf at {rate:,.0f} qps: through Kneeboard / by hand | {through:,.0f} / {hand:,.0f} qps = {through / hand:.3f}× |"
          for rate, through, hand in fidelity),
    ]  # fmt: skip
    text = "\n".join(lines) + "\n"
    print(text)
    out = ROOT / "docs" / "performance" / "harness.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
