"""Issue 47, item 6, on a real server through perf: a small Go HTTP server whose hot function (main.hot, a loop of
`cost` steps per request, ≥ 50 % of its own samples) is run at two costs under the same kbhttp load, each a campaign
profiled by perf (root). The differential of B (3× the cost) against A ranks main.hot first by default (self change);
ranked by total change, its callers and the goroutine's root (which grow as much, but not in themselves) come first."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run

skip_without_lab()  # perf as root, as the lab's profiling tests
if shutil.which("perf") is None or shutil.which("go") is None:
    pytest.skip("perf (Debian: linux-perf) and go are needed", allow_module_level=True)

SERVER = """package main

import (
\t"fmt"
\t"net/http"
\t"os"
\t"strconv"
)

//go:noinline
func hot(n int) uint64 {
\tx := uint64(1)
\tfor i := 0; i < n; i++ {
\t\tx = x*6364136223846793005 + 1442695040888963407
\t}
\treturn x
}

func main() {
\tn, _ := strconv.Atoi(os.Args[2])
\thttp.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "%d\\n", hot(n)) })
\tif err := http.ListenAndServe(os.Args[1], nil); err != nil {
\t\tpanic(err)
\t}
}
"""
COSTS = (150_000, 450_000)  # loop steps per request: ~0.15 and ~0.45 ms of CPU here, against net/http's ~0.05 ms
RATE = 1000


@pytest.fixture(scope="module")
def kbhot(tmp_path_factory):
    """The server's binary, built with the Go toolchain (frame pointers: full stacks)."""
    folder = tmp_path_factory.mktemp("kbhot")
    (folder / "main.go").write_text(SERVER)
    subprocess.run(["go", "build", "-o", str(folder / "kbhot"), "main.go"], cwd=folder, check=True, capture_output=True, timeout=300,
                   env={"PATH": "/usr/local/go/bin:/usr/bin:/bin", "HOME": str(folder), "GOCACHE": str(folder / "cache"),
                        "GOPATH": str(folder / "gopath"), "GO111MODULE": "off", "GOTOOLCHAIN": "local"})  # fmt: skip
    return folder / "kbhot"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _campaign(stack, binary, cost: int, port: int, target_id: int) -> dict:
    """One campaign against the server run at `cost`: its one point."""
    server = subprocess.Popen([str(binary), f"127.0.0.1:{port}", str(cost)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        body = {"name": f"kbhot cost {cost}", "tool": "kbhttp", "target_id": target_id, "pause_s": 0,
                "params": {"path": "/", "timeout_s": 2},
                "phases": [{"kind": "saturation", "concurrency": 4, "rate": [RATE], "duration_s": 10}],
                "cpu_profile": {"process": "kbhot", "frequency_hz": 99}}  # fmt: skip
        campaign, points = run(stack, body, timeout_s=120)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert campaign["status"] == "completed" and len(points) == 1, [p["error"] for p in points]
    assert not [w for w in points[0]["warnings"] if w.startswith("CPU profile")], points[0]["warnings"]
    return points[0]


def test_the_differential_ranks_the_function_that_grew_in_itself_first(stack, kbhot):
    port = _free_port()
    target_id = stack.api.post("/api/v1/targets", json={"name": "kbhot", "kind": "http", "host": "127.0.0.1", "port": port}).json()["id"]
    a, b = (_campaign(stack, kbhot, cost, port, target_id) for cost in COSTS)
    api = stack.api
    top = api.get(f"/api/v1/points/{b['id']}/cpu-profile/functions", params={"by": "self", "limit": 5}).json()["functions"]
    assert top[0]["function"] == "main.hot" and top[0]["self_pct"] >= 50, top[:3]  # the hot function is known: ≥ 50 % self
    diff = api.get(f"/api/v1/points/{a['id']}/cpu-profile/diff/{b['id']}", params={"limit": 30}).json()
    first, by_total = diff["functions"][0], diff["functions_by_total"][0]
    print(f"\nfigures: main.hot {top[0]['self_pct']:.0f} % self at the higher cost; kbhot {diff['a']['per_1k']:.2f} → "
          f"{diff['b']['per_1k']:.2f} samples per 1,000 requests; by self change first: {first['function']} "
          f"{first['self_per_1k_change']:+.2f}; by total change first: {by_total['function']} {by_total['total_per_1k_change']:+.2f}")
    assert diff["ranked_by"] == "self" and diff["sign"] == "B − A per 1,000 requests, A the reference"
    assert first["function"] == "main.hot" and first["self_per_1k_change"] > 0
    # its caller, the handler, grew about as much in total but not in itself: the total view could lead with it, the self view does not
    handler = next(f for f in diff["functions_by_total"] if f["function"] == "net/http.HandlerFunc.ServeHTTP")
    assert handler["total_per_1k_change"] >= 0.9 * first["self_per_1k_change"]
    assert abs(handler["self_per_1k_change"]) < 0.1 * first["self_per_1k_change"]
