"""Regenerate the failover components' fixture from a real capture: kbhttp at 2,000 req/s through the lab's HAProxy
while backend b2's nginx was stopped 3 s into the run and started again 4 s later
(tests/fixtures/tool-output/kbhttp-0.3-haproxy-b2-stopped-r2000.*), read by the backend's own code: the outcome file as
stored on a point, GET /points/{id}/outcomes' answer (failover/service.py's summary) and the point's extra["events"] and
extra["failover"] as runs/fired_events.py files them (events/figures.py), with the capture's stop and listening times;
and an extra["distribution"] (analysis/failover.distribution) of that capture and its `redispatch` twin combined as two
agents' shares of one fanned point (analysis/failover.combine), as tests/unit/test_distribution.py does.

    .venv/bin/python frontend/src/components/failover/__fixtures__/make_fixtures.py
"""

from __future__ import annotations

import json
import pathlib

from kneeboard.analysis import failover
from kneeboard.events.figures import per_event
from kneeboard.tools.kbhttp import outcomes

ROOT = pathlib.Path(__file__).resolve().parents[5]
NAME = "kbhttp-0.3-haproxy-b2-stopped-r2000"
TWIN = "kbhttp-0.3-haproxy-redispatch-b2-stopped-r2000"
CAPTURED = ROOT / "tests" / "fixtures" / "tool-output"


def main() -> None:
    stored, warnings = outcomes.parse((CAPTURED / f"{NAME}.jsonl").read_text())
    assert not warnings, warnings
    meta = json.loads((CAPTURED / f"{NAME}.meta.json").read_text())
    start = stored["start"]
    events = [{"at_s": round(meta["stop_signal_at"] - start, 3), "action": "lab.backend_stop", "value": "b2", "t": meta["stop_signal_at"],
               "done": meta["stop_returned_at"]},
              {"at_s": round(meta["start_began_at"] - start, 3), "action": "lab.backend_start", "value": "b2", "t": meta["start_began_at"],
               "done": meta["lab_up_returned_at"], "listening": meta["listening_at"]}]  # fmt: skip
    o = failover.Outcomes.from_stored(stored)
    summary = {"failed_by_class": failover.failed_by_class(o), "error_window": failover.error_window(o),
               "longest_gap": failover.longest_gap(o), "spread": failover.spread(o), "persistence": failover.persistence(o)}  # fmt: skip
    twin, _ = outcomes.parse((CAPTURED / f"{TWIN}.jsonl").read_text())
    fanned, sources = failover.combine({"agent-1": o, "agent-2": failover.Outcomes.from_stored(twin)})
    out = {"capture": NAME, "outcomes": {"point_id": 1, "outcomes": stored, "summary": summary},
           "events": events, "failover": per_event(stored, events), "distribution": failover.distribution(fanned, sources)}  # fmt: skip
    (pathlib.Path(__file__).parent / "b2-stopped.json").write_text(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
