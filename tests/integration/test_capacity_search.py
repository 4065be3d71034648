"""A search campaign against the known-capacity server, launched by `kneeboard run`: Celery worker → kbhttp trials →
`kbhttp serve --workers N --service-time D` → Postgres. Every trial is an ordinary point with its evidence; the bracket
is published on the campaign's live channel as it narrows; the analysis and the CLI say the capacity."""

from __future__ import annotations

import json
import threading
import time

import pytest
import redis
import yaml

from tests.integration.test_campaign_run import wait_status
from tests.integration.test_cli import kb
from tests.support.capacity_search import known_capacity, server_capacity

pytestmark = pytest.mark.tools

WORKERS, SERVICE_MS = 200, 400  # capacity 500 req/s: far below what this 2-core machine serves, so the server is the limit
LOSS_PCT = 2
# The value found is the highest offered load that kept loss ≤ 2 %: at most capacity / 0.98 (+2 %) when the server refuses
# only what it cannot serve, at least capacity × (1 − 2 %) (the resolution). Below capacity, a stall of the load generator
# (a shared 2-core machine) sends its late requests at once; the idle workers absorb a stall of up to service time × (1 −
# load), 20 ms at 95 % with 400 ms, hence few workers × short service times are a poor reference (50 × 100 ms: −1 % to
# −8.5 % in 7 runs; 10 × 20 ms: −15 % to −26 %); 200 × 400 ms: −2.0 % to +0.7 % in 14 runs. Asserted: ±4 %.
# Hence in the foreground lane: beside a CPU hog and a 60 % one at normal priority it found +1.7 % and +1.1 %, but under
# SCHED_IDLE beside the same −6.7 % (and −5.6 % in the background lane of a `make test-busy`): a starved generator's stalls.
TOLERANCE = 0.04


def search_plan(target_id: int, longest_s: float = 2) -> dict:
    """A kbhttp search for the capacity at loss ≤ 2 % between 200 and 1,000 req/s, to 2 %, trials from 0.5 s up to `longest_s`."""
    return {"name": "find capacity", "tool": "kbhttp", "target_id": target_id, "params": {"path": "/", "timeout_s": 2}, "pause_s": 0,
            "phases": [{"kind": "search", "concurrency": 4 * WORKERS, "low": 200, "high": 1000, "resolution_pct": 2, "duration_s": longest_s,
                        "criteria": [{"metric": "loss_pct", "limit": LOSS_PCT}]}]}  # fmt: skip


class Brackets(threading.Thread):
    """Every `search` event published on the campaigns' live channels while it listens."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.pubsub = redis.Redis.from_url(url).pubsub()
        self.pubsub.psubscribe("kneeboard:campaign:*")
        self.events: list[dict] = []
        self.stopped = False

    def run(self) -> None:
        while not self.stopped:
            message = self.pubsub.get_message(timeout=0.2)
            if message and message["type"] == "pmessage":
                body = json.loads(message["data"])
                if body["event"] == "search":
                    self.events.append(body["data"])

    def stop(self) -> list[dict]:
        self.stopped = True
        self.join(timeout=5)
        self.pubsub.close()
        return self.events


def test_a_search_campaign_finds_the_known_capacity(stack, tmp_path):
    started = time.monotonic()
    listening = Brackets(stack.env["REDIS_URL"])
    listening.start()
    with known_capacity(WORKERS, SERVICE_MS) as port:
        target = stack.api.post("/api/v1/targets", json={"name": f"capserver-{port}", "kind": "http", "host": "127.0.0.1", "port": port})
        body = search_plan(target.json()["id"])
        preview = stack.api.post("/api/v1/plans/preview", json=body)
        assert [p["offered_rate"] for p in preview.json()["points"]] == [1000], "a search expands to its first trial, the top of its range"
        (tmp_path / "plan.yaml").write_text(yaml.safe_dump(body))
        done = kb(stack, "run", str(tmp_path / "plan.yaml"), "--json", str(tmp_path / "r.json"))
        truth = server_capacity(port)["capacity"]
    events = listening.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    campaign = stack.api.get(f"/api/v1/campaigns/{json.loads((tmp_path / 'r.json').read_text())['campaign_id']}").json()
    (search,) = campaign["analysis"]["search"]
    (found,) = search["criteria"]
    points = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    print(f"\nsearch: {found['statement']} · server {truth:,.1f} req/s · error {(found['value'] / truth - 1) * 100:+.1f} % · "
          f"{search['trials']} trials, {search['trial_seconds']:g} trial-s · {time.monotonic() - started:.1f} s wall\n"
          + "\n".join(f"  {p['offered_rate']:8.1f} req/s {p['duration_s']:g} s: {p['metrics']['errors']:g} refused of {p['metrics']['sent']:g}" for p in points)
          + f"\nkneeboard run said:\n{done.stdout}")  # fmt: skip
    assert search["done"] and found["kind"] == "between" and found["low"] < found["high"]
    assert abs(found["value"] / truth - 1) <= TOLERANCE, (found, truth)
    assert (found["high"] - found["low"]) / found["low"] <= 0.02 + 1e-9, "known to the resolution"
    assert f"search (phase 1): capacity at loss_pct ≤ 2: {found['statement']}" in done.stdout, "kneeboard run prints the capacity found"

    assert len(points) == search["trials"] and all(p["phase"] == "search" and p["status"] == "completed" for p in points)
    evidence = stack.api.get(f"/api/v1/points/{points[-1]['id']}").json()
    assert evidence["argv"][1:3] == ["run", "--url"] and evidence["stdout"], "each trial is an ordinary point with its evidence"
    assert float(evidence["argv"][evidence["argv"].index("--rate") + 1]) == pytest.approx(points[-1]["offered_rate"])
    assert len({p["duration_s"] for p in points}) > 1, "short trials first, longer near the boundary"

    mine = [e for e in events if e["phase_index"] == 0 and e["unit"] == "req/s"]
    widths = [e["high"] - e["low"] for e in mine if not e["done"] and e["low"] is not None and e["high"] is not None]
    assert mine[-1]["done"] and mine[-1]["criteria"][0]["value"] == found["value"], "the end of the search is published"
    # it narrows (a lower bound that fails a longer trial moves down: the bracket may widen by a step on the way)
    # the last event before "done" announces the last trial: its bracket is one halving wider than the final (2 %) one
    assert widths and widths[-1] < widths[0] / 10 and widths[-1] <= 0.04 * found["high"], f"the published bracket narrows: {widths}"


def test_a_cancelled_search_resumes_from_its_bracket(stack):
    with known_capacity(WORKERS, SERVICE_MS) as port:
        target = stack.api.post("/api/v1/targets", json={"name": f"capserver-resume-{port}", "kind": "http", "host": "127.0.0.1", "port": port})
        plan = stack.api.post("/api/v1/plans", json={**search_plan(target.json()["id"], longest_s=1), "name": "resumed search"})
        campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan.json()["id"]}).json()["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["summary"]["points_completed"] < 3:
            time.sleep(0.2)
        assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel").status_code == 200
        cancelled = wait_status(stack.api, campaign_id, {"cancelled", "completed"}, timeout_s=30)
        assert cancelled["status"] == "cancelled", cancelled["status"]
        before = {p["id"]: p for p in stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json() if p["status"] == "completed"}
        stopped = cancelled["analysis"]["search"][0]
        assert not stopped["done"] and stopped["bracket"]["high"] is not None, "a stopped search says the bracket it reached"
        assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/resume").status_code == 202
        campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=90)
        truth = server_capacity(port)["capacity"]
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    (search,) = campaign["analysis"]["search"]
    value = search["criteria"][0]["value"]
    print(f"\nresumed after {len(before)} trials: {search['criteria'][0]['statement']} in {search['trials']} trials · "
          f"server {truth:,.1f} req/s · error {(value / truth - 1) * 100:+.1f} %")
    assert campaign["status"] == "completed" and search["done"] and search["criteria"][0]["kind"] == "between"
    assert abs(value / truth - 1) <= TOLERANCE, (search, truth)
    assert all(before[i]["metrics"] == p["metrics"] for p in points if (i := p["id"]) in before), "the trials before the cancel are kept"
    assert sum(p["offered_rate"] == 1000 for p in points) == 1, "it went on from the bracket, not from the top of the range"
    assert [p["status"] for p in points] == ["completed"] * len(points) and search["trials"] == len(points)


def test_a_ten_percent_capacity_change_is_found_with_five_repetitions(stack):
    """Two settings of the known-capacity server, 200 and 220 workers × 400 ms (about 500 and 550 req/s), each searched
    five times by one campaign; the comparison of the two campaigns tells the change. Short trials (0.5 s, a narrow
    range) keep it short: the change is 10 %, the resolution 2 %."""
    ids, truths, trials = [], [], []
    for workers in (WORKERS, WORKERS * 11 // 10):
        with known_capacity(workers, SERVICE_MS) as port:
            target = stack.api.post("/api/v1/targets", json={"name": f"capserver-{workers}w-{port}", "kind": "http", "host": "127.0.0.1", "port": port})
            body = {**search_plan(target.json()["id"]), "name": f"{workers} workers", "repeat": 5}
            body["phases"][0].update(concurrency=2 * workers, low=400, high=700, duration_s=0.5)
            plan = stack.api.post("/api/v1/plans", json=body)
            assert plan.status_code == 201, plan.text
            launched = stack.api.post("/api/v1/campaigns", json={"plan_id": plan.json()["id"]})
            campaign = wait_status(stack.api, launched.json()["id"], {"completed", "failed", "crashed"}, timeout_s=120)
            truths.append(server_capacity(port)["capacity"])
        assert campaign["status"] == "completed", campaign.get("error")
        ids.append(campaign["id"])
        trials.append(sum(s["trials"] for s in campaign["analysis"]["search"]))
    compared = stack.api.get("/api/v1/compare", params=[("c", ids[0]), ("c", ids[1])])
    assert compared.status_code == 200, compared.text
    (row,) = [h for h in compared.json()["headline"] if h["metric"] == f"search:loss_pct:{LOSS_PCT}"]  # the search's criterion, labelled
    found = [row["values"][str(i)] for i in ids]
    print(f"\nservers {truths[0]:,.1f} and {truths[1]:,.1f} req/s ({(truths[1] / truths[0] - 1) * 100:+.1f} %); searches found "
          f"{found[0]:,.1f} and {found[1]:,.1f} ({(found[1] / found[0] - 1) * 100:+.1f} %): {row['verdicts'][str(ids[1])]}, "
          f"{row['details'][str(ids[1])]}; {trials} trials")  # fmt: skip
    assert row["verdicts"][str(ids[1])] == "better", row
    assert 5 <= (found[1] / found[0] - 1) * 100 <= 15, found
    assert "detectable" in row["details"][str(ids[1])], "the verdict states the smallest change it could have detected"
    backwards = stack.api.get("/api/v1/compare", params=[("c", ids[1]), ("c", ids[0])]).json()
    assert next(h for h in backwards["headline"] if h["metric"] == row["metric"])["verdicts"][str(ids[0])] == "worse"
