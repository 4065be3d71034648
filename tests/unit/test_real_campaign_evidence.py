"""The server evidence of the real campaigns of tests/fixtures/real-campaigns (AdGuard Home and CoreDNS as their
authors ship them, on the load generator's own 2-core host), imported from their export and analysed by the product's
path, read as their README says (issues 46 and 47): every figure read is used. Each expectation is computed here from
the export's own raw points (the client's figures and the mpstat monitor's summary), never written in."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean, median

import pytest

from kneeboard.campaigns import analysis as campaign_analysis
from kneeboard.campaigns.importer import ImportFile, from_export
from kneeboard.campaigns.models import Campaign
from kneeboard.evidence import bottleneck

FIXTURES = Path(__file__).parents[1] / "fixtures" / "real-campaigns"


def imported(name: str) -> tuple[dict, list[dict]]:
    """(the product's analysis of the exported campaign, imported without a database; the export's raw points)."""
    text = (FIXTURES / name).read_text()
    points, plan, head = from_export(ImportFile(name=name, text=text))
    campaign = Campaign(name=head["name"], tool=head["tool"], plan=plan, environment=head.get("environment") or {},
                        target=head.get("target"))
    campaign.points = points
    with pytest.MonkeyPatch.context() as patch:  # the stability point's interval samples come from the database
        patch.setattr(campaign_analysis, "_stability_samples", lambda points: None)
        return campaign_analysis.analyse_campaign(campaign), json.loads(text)["points"]


def sweep(raw: list[dict]) -> dict[float, list[dict]]:
    """The saturation phase's completed points by offered load."""
    loads: dict[float, list[dict]] = {}
    for p in raw:
        if p["phase"] == "saturation" and p["status"] == "completed":
            loads.setdefault(p["offered_rate"], []).append(p)
    return dict(sorted(loads.items()))


def busiest(point: dict) -> float:
    return point["extra"]["monitors"]["mpstat"]["cpu_max_busy_pct"]


@pytest.fixture(scope="module")
def adguard():
    return imported("adguard-seed000-template.json")


@pytest.fixture(scope="module")
def coredns():
    return {name: imported(f"coredns-{name}-untuned.json") for name in ("minimal", "log")}


def test_adguards_bottleneck_is_the_hosts_cpus_shared_with_the_load_generator(adguard):
    result, raw = adguard
    found = result["evidence"]["bottleneck"]
    assert found["resource"] == bottleneck.SHARED_HOST and found["kind"] == "utilisation", found
    assert "shared by the server and the load generator, are full" in found["text"]
    assert "which process held them was not read" in found["text"]  # no exporter, no process monitor on AdGuard
    # "one at 100 % from 20k": the lowest offered load from which the busiest CPU was full (≥ 99 %) at every load above
    loads = sweep(raw)
    full = [load for load in loads if all(busiest(p) >= 99 for q in loads if q >= load for p in loads[q])]
    assert found["text"].startswith(f"from {min(full):,.0f} offered, "), found["text"]
    assert f"the busiest at {busiest(loads[max(loads)][-1]):.0f} %" in found["text"]
    assert "nothing near saturation" not in result["conclusion"] and "no bottleneck named" not in result["conclusion"].lower()
    assert result["evidence"]["read"] == ["mpstat on the load generator's host"]


@pytest.mark.parametrize("name", ["minimal", "log"])
def test_coredns_saturation_is_said_with_the_cpu_figures_read_and_what_was_not(coredns, name):
    result, raw = coredns[name]
    evidence = result["evidence"]
    found, at = evidence["bottleneck"], evidence["at"]
    assert "nothing near saturation" not in result["conclusion"]
    assert found["resource"] is None and found["text"].startswith("saturation seen at "), found["text"]
    # where the client saw it: a load past the sweep's plateau start or with latency far above the lowest load's
    loads = sweep(raw)
    lowest = median(p["metrics"]["latency_avg_ms"] for p in loads[min(loads)])
    plateau = min(load for load, points in loads.items() if mean(p["metrics"]["achieved_rate"] for p in points) < 0.95 * load)
    seen = at["offered_rate"]
    assert at["where"] == "where the client first saw saturation" and seen <= plateau
    assert median(p["metrics"]["latency_avg_ms"] for p in loads[seen]) >= 5 * lowest
    # the CPU figures read at that point (mpstat's, the server process's own) and what was not read
    point = next(e for e in evidence["points"] if e["offered_rate"] == seen and e["bottleneck"]["text"].startswith("saturation seen"))
    raw_at = [p for p in loads[seen] if f"the busiest at {busiest(p):.0f} %" in found["text"]]
    assert raw_at, found["text"]
    assert any(line.startswith(f"{bottleneck.SHARED_HOST}: the busiest at") for line in found["read"])
    assert any(line.startswith("the server process uses") for line in found["read"])
    assert "none of the resources read (" in found["text"] and "; not read: " in found["text"] and found["not_read"]
    assert point["sources"] == ["exporter coredns", "mpstat on the load generator's host"]
