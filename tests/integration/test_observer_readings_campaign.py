"""Issue 51 item 3 on a real campaign: the real observer (`kneeboard agent --observe`, its process_cpu assignment) reads
its host from a /proc root fed seed 003's server-side mpstat figures (a /proc/stat sequence rewritten as time passes:
any two of its files give the seed's utilisation), the worker's mpstat off; the report names "one receive queue" on
the server, read by that observer, for the single-queue figures and not for the multi-queue ones."""

from __future__ import annotations

import os
import secrets
import threading
import time

import pytest

from kneeboard.stack import stop
from tests.integration.test_observer import finished, launch, start_observer
from tests.integration.test_observer_process import address, admin, plan, server, target  # noqa: F401 (fixtures)
from tests.unit.test_observer_readings import seed_rows, write_stat_sequence

pytestmark = [pytest.mark.lab, pytest.mark.skipif(os.geteuid() != 0, reason="the observer's process_cpu test needs root (its burn server)")]  # lab: the host's own network (a non-loopback address of its own)


class Replay(threading.Thread):
    """Writes the seed's /proc/stat for second k at the root's stat, k growing 4 times a second (an atomic rename)."""

    def __init__(self, tmp_path, rows) -> None:
        super().__init__(daemon=True)
        self.files = write_stat_sequence(tmp_path / "seq", rows, seconds=1200)
        self.root, self.stop = tmp_path / "proc", threading.Event()
        self.root.mkdir()
        self.write(0)

    def write(self, k: int) -> None:
        (self.root / "stat.new").write_bytes((self.files[k] / "stat").read_bytes())
        os.replace(self.root / "stat.new", self.root / "stat")

    def run(self) -> None:
        k = 0
        while not self.stop.wait(0.25) and k + 1 < len(self.files):
            k += 1
            self.write(k)


@pytest.mark.parametrize("name, fires", [("single-queue", True), ("multi-queue", False)])
def test_seed_003_figures_read_by_the_observer_name_one_receive_queue(stack, admin, address, server, tmp_path,  # noqa: F811
                                                                       monkeypatch, name, fires):
    replay = Replay(tmp_path, seed_rows(name))
    replay.start()
    monkeypatch.setenv("KNEEBOARD_OBSERVER_PROC", str(replay.root))
    observer = f"obs-rd-{secrets.token_hex(3)}"
    proc, _secret = start_observer(stack, admin, observer)
    try:
        port, _server = server
        campaign_id = launch(admin, plan(target(admin, address, port)["id"], [{"kind": "process", "observer": observer}]))
        points = finished(admin, campaign_id)
    finally:
        stop(proc)
        replay.stop.set()
    campaign = admin.get(f"/api/v1/campaigns/{campaign_id}").json()
    assert all("mpstat" not in p["extra"]["monitors"] for p in points)  # the worker's mpstat is off
    for point in points:
        seen = point["extra"]["monitors"]["observer"]
        assert seen["observer"] == observer and seen["seconds"] >= 2, seen
        # the seed's CPU11 (single queue: 98.99 % softirq) read back through the observer (ticks of 0.01 %: within 0.021)
        assert seen["mean_pct_by_cpu"]["11"]["soft"] == pytest.approx(seed_rows(name)["11"]["soft"], abs=0.021)
    for found in campaign["analysis"]["evidence"]["points"]:
        assert f"read on the server by observer {observer}" in found["sources"], found["sources"]
        said = [found["bottleneck"]["text"], *found["bottleneck"]["evidence"]]
        queue = [s for s in said if "one receive queue" in s]
        if fires:
            assert queue and f"read on the server by observer {observer}" in queue[0], said
            assert "load generator" not in queue[0]
        else:
            assert not queue, said
