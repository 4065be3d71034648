"""Seed 001's template run whole (6 loads × 3 repetitions × 10 s a side, about 7 minutes): `make bench-seed001`.
Left out of `make test` (KB_SEED_TEMPLATES=1 runs it): the logging configuration must come out "worse" by the
server's own CPU per 1,000 queries, at least 10 %, with the comparison's verdict (root + the lab's CoreDNS)."""

from __future__ import annotations

import os
import time

import pytest

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run
from tests.integration.test_server_evidence_lab import coredns_target

skip_without_lab()
if not os.environ.get("KB_SEED_TEMPLATES"):
    pytest.skip("the whole seed-001 template takes ~7 minutes: make bench-seed001", allow_module_level=True)


def test_the_whole_seed_001_template_finds_logging_worse_by_cpu_per_query(stack, lab):
    template = stack.api.get("/api/v1/plans/templates/dns-coredns-logging-seed001").json()["plan"]
    began = time.monotonic()
    campaign, points = run(stack, {**template, "target_id": coredns_target(stack)}, timeout_s=900)
    took = time.monotonic() - began
    assert campaign["status"] == "completed", [p["error"] for p in points]
    key, reference = f"{campaign['id']}@log_file", f"{campaign['id']}@minimal"
    compared = stack.api.get("/api/v1/compare", params=[("c", reference), ("c", key)]).json()
    for row in compared["headline"]:
        if row["values"][key] is not None:
            print(f"\nfigures: {row['label']}: minimal {row['values'][reference]:.4g}, log_file {row['values'][key]:.4g} "
                  f"({(row['deltas'][key] or {}).get('pct') or 0:+.1f} %), {row['verdicts'][key]}")
    print(f"\nfigures: the template took {took:.0f} s ({len(points)} points)")
    cost = next(r for r in compared["headline"] if r["metric"] == "server_cost")
    assert cost["verdicts"][key] == "worse" and cost["deltas"][key]["pct"] >= 10.0, cost
    assert took < 600, "a seed's template finishes in 10 minutes on 2 CPUs"
