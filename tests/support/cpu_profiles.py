"""Imported campaigns whose plans ask for CPU profiles, with real ones stored beside their stability point: the lab's
CoreDNS and nginx captured by `perf script` (tests/fixtures/tool-output/perf-6.1-script-*.txt), folded by Kneeboard's
own folding, as the local worker stores them. For the report, share page, export and compare views of issue 38."""

from __future__ import annotations

import json

from tests.support.reports import campaign_document

FIXTURES = "tests/fixtures/tool-output"
HOSTILE_FRAME = "<script>alert(1)</script>"  # a frame name the views must keep as text


def _store(point_id: int, fixture: str, process: str, *, extra: dict[str, int] | None = None) -> None:
    """Fold a perf script fixture for `process` and store it as the point's CPU profile (with `extra` stacks added)."""
    from kneeboard.db import session_scope
    from kneeboard.profiling.folding import cap, fold
    from kneeboard.profiling.service import store

    from tests.conftest import ROOT

    with open(ROOT / FIXTURES / f"perf-6.1-script-{fixture}.txt") as fh:
        folded = fold(fh, process)
    for stack, count in (extra or {}).items():
        folded.stacks[stack] += count
        folded.samples += count
    capped = cap(folded.stacks)
    with session_scope() as session:
        store(point_id, {"process": process, "frequency_hz": 99, "window_s": 20.0, "samples": folded.samples,
                         "all_samples": folded.all_samples, "stack_depth": folded.stack_depth, "stacks": capped.stacks,
                         "dropped_stacks": capped.dropped_stacks, "dropped_samples": capped.dropped_samples, "folded": capped.text},
              session=session)  # fmt: skip


def profiled_campaign(stack, name: str, fixture: str, *, points: int = 4, process: str = "coredns") -> dict:
    """Import a dnsperf sweep whose plan asks for `process`'s CPU profile and store `fixture`'s as its stability point's
    (with a frame named like markup); returns the campaign with "profiled" (that point's id) and "unprofiled" (another's)."""
    document = campaign_document(name, points=points, duration_s=20)
    document["campaign"]["plan"]["cpu_profile"] = {"process": process, "frequency_hz": 99}
    imported = stack.api.post("/api/v1/campaigns/import", files=[("file", ("campaign.json", json.dumps(document).encode()))])
    assert imported.status_code == 201, imported.text
    campaign = imported.json()
    listed = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    stability = next(p for p in listed if p["phase"] == "stability")
    _store(stability["id"], fixture, process, extra={f"runtime.goexit.abi0;main.handler;{HOSTILE_FRAME}": 3})
    return {**campaign, "profiled": stability["id"], "unprofiled": next(p["id"] for p in listed if p["phase"] != "stability")}
