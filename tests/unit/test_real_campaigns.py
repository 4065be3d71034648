"""The three real campaigns of tests/fixtures/real-campaigns (AdGuard Home and CoreDNS as their authors ship them, on
the load generator's own 2-core host) imported from their export.json and read as their README says (issue 47).

The path is the product's, without a database: the importer's from_export makes the points and
campaigns.analysis.analyse_campaign analyses them (an imported stability point's interval samples are read again from
its stored dnsperf output by the dnsperf adapter's interval reader, as the worker read them live)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kneeboard.campaigns.analysis import analyse_campaign
from kneeboard.campaigns.importer import ImportFile, from_export
from kneeboard.campaigns.models import Campaign

FIXTURES = Path(__file__).parents[1] / "fixtures" / "real-campaigns"


def analysed(name: str) -> dict:
    """The product's analysis of one exported campaign, imported without a database."""
    text = (FIXTURES / name).read_text()
    points, plan, head = from_export(ImportFile(name=name, text=text))
    campaign = Campaign(name=head["name"], tool=head["tool"], plan=plan, environment=head.get("environment") or {}, target=head.get("target"))
    campaign.points = points
    return analyse_campaign(campaign)


def red_from(result: dict) -> float | None:
    return next((z["from_rate"] for z in result["zones"] if z["zone"] == "red"), None)


def says_generator_limited(result: dict) -> bool:
    text = " ".join([result["conclusion"], (result.get("usl") or {}).get("note") or ""]).lower()
    return "generator limited" in text or "generator-limited" in text or "the load generator limited" in text


@pytest.fixture(scope="module")
def adguard():
    return analysed("adguard-seed000-template.json")


@pytest.fixture(scope="module")
def coredns():
    return {name: analysed(f"coredns-{name}-untuned.json") for name in ("minimal", "log")}


def test_adguard_knee_lies_where_latency_leaves_its_plateau(adguard):
    # README: mean 0.81 ms at 10k, 2.52 ms at 15k, 10.6 ms and losses at 20k: the knee is in (10,000, 15,000]
    knee = adguard["knee"]
    assert 10_000 < knee["offered_rate"] <= 15_000
    assert knee["rule"] == "latency" and knee["metric"] == "latency_avg_ms" and "mean latency" in knee["why"]
    assert knee["offered_rate"] <= red_from(adguard)  # never inside the red zone the same report draws


def test_adguard_ceiling_is_measured_with_the_loads_past_it(adguard):
    top = adguard["ceiling"]
    # README: 33,897 q/s at 35k offered, then 31,817 at 40k and 30,100 at 50k (one run each, so read as recorded)
    assert top["kind"] == "measured" and top["bound"] is False
    assert top["achieved_rate"] == pytest.approx(33_897, rel=0.001) and top["offered_rate"] == 35_000
    past = {p["offered_rate"]: p["achieved_rate"] for p in top["past"]}
    assert set(past) == {40_000, 50_000} and all(a < top["achieved_rate"] for a in past.values())
    assert "lower bound" not in top["statement"] and "31,817" in top["statement"] and "30,100" in top["statement"]


def test_adguard_does_not_blame_the_generator(adguard):
    # every scalability point up to 16 clients sent its load; none was generator-limited
    assert adguard["generator_limited"] == []
    assert not says_generator_limited(adguard)
    assert "kept up" in adguard["usl"]["note"]


def test_adguard_stability_names_the_latency_drift(adguard):
    st = adguard["stability"]
    assert st["verdict"] == "drifting"
    # README: p50 drifting (the stored analysis said −35.7 % beside a 0.21 % rate drift)
    assert [d["metric"] for d in st["drifted"]] == ["latency_p50_ms"]
    assert st["drifted"][0]["drift_pct"] < -20 and "p50 latency" in st["statement"] and "achieved rate" not in st["statement"]


def test_coredns_knees_come_from_one_rule_and_are_not_inverted(coredns):
    minimal, logging = coredns["minimal"]["knee"], coredns["log"]["knee"]
    assert minimal["rule"] == logging["rule"] == "latency" and minimal["metric"] == logging["metric"]
    # the logging server is the slower one (ceiling −15 %, CPU per query +18 %): its knee is not above the faster one's
    assert logging["offered_rate"] <= minimal["offered_rate"]
    for name, result in coredns.items():
        assert result["knee"]["offered_rate"] <= red_from(result), name
        assert "medians of 3 repetitions" in result["knee"]["why"]


def test_coredns_ceilings_are_measured_plateaus(coredns):
    # README: both plateau, minimal ~55k and log ~47k (mean of repetitions at the top)
    minimal, logging = coredns["minimal"]["ceiling"], coredns["log"]["ceiling"]
    assert minimal["kind"] == logging["kind"] == "measured"
    assert minimal["achieved_rate"] == pytest.approx(55_000, rel=0.03)
    assert logging["achieved_rate"] == pytest.approx(47_000, rel=0.03)
    assert all(not says_generator_limited(r) and r["generator_limited"] == [] for r in coredns.values())
