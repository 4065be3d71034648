"""Issue 39's events on the live stream: a running point's events reach a logged-in user's stream as they fire and
again when they are done (`point_event`), before the point's completion, with the epoch time they fired at
(load start + at_s). A kbhttp point through the lab's HAProxy: b2 disabled at 1 s, enabled at 2 s, 4 s long.

KB_CAPTURE_LIVE_STREAM=path writes the stream as received (the frontend's __fixtures__/point-events.sse is one)."""

from __future__ import annotations

import json
import os
import time

from kneeboard.lab import haproxy
from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import target
from tests.support.auth import login, make_user

skip_without_lab()
EVENTS = [{"at_s": 1, "action": "lab.haproxy_disable", "value": "b2"}, {"at_s": 2, "action": "lab.haproxy_enable", "value": "b2"}]


def read_stream(lines) -> list[tuple[str, dict, float]]:
    """(kind, data, arrival epoch) of each server-sent event until `end`."""
    received, kind = [], None
    for line in lines:
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: ") and kind:
            received.append((kind, json.loads(line[6:]), time.time()))
            if kind == "end":
                break
    return received


def test_a_running_points_events_reach_the_live_stream_before_its_completion(stack, lab):
    plan = {"name": "live events", "tool": "kbhttp", "target_id": target(stack, haproxy.SERVICE, "http", haproxy.PORT),
            "params": {"count_header": "X-Backend", "timeout_s": 2},
            "phases": [{"kind": "stability", "concurrency": 4, "rate": 200, "duration_s": 4, "events": EVENTS}], "pause_s": 0}  # fmt: skip
    created = stack.api.post("/api/v1/plans", json=plan)
    assert created.status_code == 201, created.text
    viewer = login(stack, *make_user(stack, "viewer"))
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]}).json()["id"]
    raw: list[str] = []
    with viewer.stream("GET", f"/api/v1/campaigns/{campaign_id}/events", timeout=60) as answer:
        assert answer.status_code == 200, answer.read()

        def kept():
            for line in answer.iter_lines():
                raw.append(line)
                yield line

        received = read_stream(kept())
    viewer.close()
    if os.environ.get("KB_CAPTURE_LIVE_STREAM"):
        with open(os.environ["KB_CAPTURE_LIVE_STREAM"], "w") as capture:
            capture.write("\n".join(raw) + "\n")
    kinds = [kind for kind, _, _ in received]
    point = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
    assert point["status"] == "completed", point["error"]
    completed = next(i for i, (kind, data, _) in enumerate(received) if kind == "point" and data["status"] == "completed")
    told = [(i, data, at) for i, (kind, data, at) in enumerate(received) if kind == "point_event"]
    assert [(d["action"], "done" in d) for _, d, _ in told] == [(EVENTS[0]["action"], False), (EVENTS[0]["action"], True),
                                                                (EVENTS[1]["action"], False), (EVENTS[1]["action"], True)], kinds
    assert all(i < completed for i, _, _ in told), kinds
    load_start = float(stack.api.get(f"/api/v1/points/{point['id']}/outcomes").json()["outcomes"]["start"])  # kbhttp's first send
    fired = ", ".join(f"{d['t'] - load_start:.3f} s (at_s {d['at_s']}, told {at - d['t']:.3f} s later)" for _, d, at in told[::2])
    print(f"\nfigures: {len(received)} live messages; point_event fired at load start + {fired}; "
          f"completion told {received[completed][2] - told[-1][2]:.3f} s after the last")
    for _, data, _ in told:
        assert data["point_id"] == point["id"] and "error" not in data, data
        assert abs(data["t"] - (load_start + data["at_s"])) <= 0.5, (data, load_start)
    assert all(at - data["t"] <= 0.5 for _, data, at in told[::2]), told  # told as it fired, not with the point's end
    stored = [(e["action"], e["t"]) for e in point["extra"]["events"]]
    assert stored == [(d["action"], d["t"]) for _, d, _ in told[1::2]]  # the same times the report's markers use
