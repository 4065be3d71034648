"""Every seed's template run whole against the lab servers it is meant for (about half an hour in all): `make
bench-templates` (`make bench-seed001`: seed 001's logging comparison alone). Left out of `make test`
(KB_SEED_TEMPLATES=1 runs it). Each prints its time, which must stay within 10 minutes on 2 CPUs, and its conclusion;
seed 000's states its knee, ceiling and zones with AdGuard's rate limit shown not to bind, and seed 001's logging
configuration comes out "worse" by the server's own CPU per 1,000 queries, at least 10 %, with its verdict."""

from __future__ import annotations

import os
import time

import pytest

from kneeboard.lab import adguard, namespace
from kneeboard.plans.templates import list_templates
from kneeboard.stack import ROOT
from tests.integration.conftest import lab_target, skip_without_lab
from tests.integration.test_lab_campaigns import run
from tests.integration.test_seed_templates import compared

skip_without_lab()
if not os.environ.get("KB_SEED_TEMPLATES"):
    pytest.skip("the seeds' whole templates take about half an hour: make bench-templates", allow_module_level=True)


def adguard_queries(workdir) -> int:
    """AdGuard Home's own count of DNS queries (GET /control/stats)."""
    return adguard.api(namespace.LAB_ADDR, workdir / "adguard", "/control/stats")["num_dns_queries"]


@pytest.mark.timeout(1800)  # seed 002 runs three campaigns; each template must still finish within 10 minutes
@pytest.mark.parametrize("template_id", [t.id for t in list_templates() if t.seed])
def test_a_whole_seed_template_finishes_within_ten_minutes_with_its_finding(stack, lab, template_id):
    namespace.up(lab[0], devsim_binary=str(ROOT / "simulator" / "bin" / "devsim"))
    template = stack.api.get(f"/api/v1/plans/templates/{template_id}").json()
    before = adguard_queries(lab[0]) if "lab-adguard" in template["lab_targets"] else None
    began, campaigns = time.monotonic(), []
    for name in template["lab_targets"]:
        campaign, points = run(stack, {**template["plan"], "target_id": lab_target(stack, name)}, timeout_s=900)
        assert campaign["status"] == "completed", [p["error"] for p in points]
        campaigns.append((campaign, points))
    took = time.monotonic() - began
    for campaign, points in campaigns:
        analysis = stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["analysis"]
        print(f"\nfigures: {template_id} against {campaign['target']['name']}: {len(points)} points; {analysis['conclusion']}")
    print(f"\nfigures: {template_id} took {took:.0f} s")
    assert took < 600, "a seed's template finishes in 10 minutes on 2 CPUs"
    if before is not None:
        _seed000_is_not_rate_limited(campaigns[0], adguard_queries(lab[0]) - before, stack)
    if len(campaigns) > 1:  # seed 002: the balancers side by side
        keys = [str(c["id"]) for c, _ in campaigns]
        for row in compared(stack, keys)["headline"]:
            print(f"\nfigures: {row['label']}: " + ", ".join(
                f"{c['target']['name']} {row['values'][k]:.4g}" + (f" ({row['verdicts'][k]})" if row["verdicts"].get(k) else "")
                for (c, _), k in zip(campaigns, keys) if row["values"].get(k) is not None))
    if template_id == "dns-coredns-logging-seed001":
        _logging_is_worse(stack, campaigns[0][0]["id"])


def _seed000_is_not_rate_limited(run_of: tuple[dict, list[dict]], counted: int, stack) -> None:
    campaign, points = run_of
    analysis = stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["analysis"]
    sent = sum(p["metrics"]["sent"] for p in points)
    refused = sum((p["extra"].get("rcodes") or {}).get("REFUSED", 0) for p in points)
    print(f"\nfigures: AdGuard counted {counted} queries of {sent:.0f} sent ({100 * (counted - sent) / sent:+.2f} %), REFUSED {refused}")
    assert refused == 0 and abs(counted - sent) <= 0.01 * sent  # a rate limit answers REFUSED or drops uncounted
    for word in ("knee", "ceiling", "operating ranges"):  # the zones, as the conclusion names them
        assert word in analysis["conclusion"].lower(), analysis["conclusion"]


def _figure(value: float | None) -> str:
    return "none" if value is None else f"{value:.4g}"


def _logging_is_worse(stack, campaign_id: int) -> None:
    key, reference = f"{campaign_id}@log_file", f"{campaign_id}@minimal"
    headline = compared(stack, [reference, key])["headline"]
    for row in headline:
        if row["values"][key] is not None:
            print(f"\nfigures: {row['label']}: minimal {_figure(row['values'][reference])}, log_file {_figure(row['values'][key])} "
                  f"({(row['deltas'][key] or {}).get('pct') or 0:+.1f} %), {row['verdicts'][key]}: {row['basis'][key]}")
    cost = next(r for r in headline if r["metric"] == "server_cost")
    assert cost["verdicts"][key] == "worse" and cost["deltas"][key]["pct"] >= 10.0, cost
