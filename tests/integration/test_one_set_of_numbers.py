"""One set of numbers: a campaign with 3 repetitions of a sweep and of a search says each figure the same everywhere.

The campaign is imported (a Kneeboard JSON export built here: a kbhttp sweep and a two-criterion search, each repeated
3 times against a modelled server whose capacity differs a little per repetition; the search's trials are the ones the
search algorithm asks for) and compared with a second one. Then every place a reader meets its figures is read: the
report's API, the comparison, the share page's API, the report's HTML file (drawn by the app's own React components),
the share link's HTML file and `kneeboard campaigns show`. Each figure must be the same number in all of them."""

from __future__ import annotations

import html
from html.parser import HTMLParser
import json
import re
import secrets
from urllib.parse import urlsplit

import httpx
import pytest

from kneeboard.search.algorithm import run
from kneeboard.search.state import config_of
from tests.integration.test_cli import kb

pytestmark = pytest.mark.tools  # the HTML files need node and the built renderer

RATES = (2000, 4000, 6000, 8000, 10000, 12000)
SEARCH = {"kind": "search", "concurrency": 800, "low": 1000, "high": 16000, "resolution_pct": 1, "duration_s": 2,
          "criteria": [{"metric": "latency_p99_ms", "limit": 20}, {"metric": "loss_pct", "limit": 2}]}  # fmt: skip


def measure(rate: float, capacity: float, duration_s: float) -> dict:
    """The modelled server at `rate`: refuses what exceeds `capacity`; its latency grows as it fills."""
    sent = round(rate * duration_s)
    refused = round(max(0.0, 1 - capacity / rate) * sent)
    fill = min(rate / capacity, 0.99)
    p99 = 1.0 + 4.0 * fill / (1 - fill)
    return {"achieved_rate": min(rate, capacity), "latency_avg_ms": p99 / 3, "latency_p50_ms": p99 / 4, "latency_p99_ms": p99,
            "sent": sent, "completed": sent, "errors": refused, "dropped": 0, "loss_pct": 100.0 * refused / sent}  # fmt: skip


def document(name: str, capacity: float) -> dict:
    """A kbhttp campaign: a saturation sweep and a search, 3 repetitions, the capacity ±2 % per repetition."""
    points = []
    for repeat, cap in enumerate((capacity * 0.98, capacity, capacity * 1.02)):
        for rate in RATES:
            points.append({"phase": "saturation", "concurrency": 800, "offered_rate": rate, "duration_s": 2.0, "repeat": repeat,
                           "metrics": measure(rate, cap, 2.0)})  # fmt: skip
        _, trials = run(config_of(SEARCH), lambda t, cap=cap: {**measure(t.rate, cap, t.duration_s), "offered_rate": t.rate})
        points += [{"phase": "search", "concurrency": 800, "offered_rate": t.rate, "duration_s": t.duration_s, "repeat": repeat,
                    "metrics": {k: v for k, v in result.items() if k != "offered_rate"}} for t, result in trials]  # fmt: skip
    for seq, point in enumerate(points):
        point["seq"] = seq
    plan = {"name": name, "tool": "kbhttp", "target_id": None, "params": {"path": "/"}, "pause_s": 0, "repeat": 3,
            "slo": {"metric": "latency_p99_ms", "limit_ms": 10},
            "phases": [{"kind": "saturation", "concurrency": 800, "rate": list(RATES), "duration_s": 2}, SEARCH]}  # fmt: skip
    head = {"name": name, "tool": "kbhttp", "agent": "local", "tags": ["numbers"], "plan": plan, "environment": {},
            "target": {"name": "numbers-http", "kind": "http", "host": "127.0.0.1", "port": 8080, "tags": []}}
    return {"format": "kneeboard-campaign/1", "campaign": head, "points": points}


def rate(x: float) -> str:
    """A rate as every place shows one at this size (≥ 1,000: whole, with thousands separators)."""
    return f"{x:,.0f} req/s"


def imported(stack, name: str, capacity: float) -> dict:
    response = stack.api.post("/api/v1/campaigns/import", files=[("file", ("c.json", json.dumps(document(name, capacity)).encode()))])
    assert response.status_code == 201, response.text
    return stack.api.get(f"/api/v1/campaigns/{response.json()['id']}").json()


def text_of(page: str) -> str:
    """A page's text: tags dropped, entities read, whitespace folded."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


class Cards(HTMLParser):
    """The report's figure cards (data-testid="card-…"): each card's label and value as the page shows them."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.cards: list[dict[str, str]] = []
        self._depth, self._field = 0, None
        self.feed(page)

    def handle_starttag(self, tag, attrs):  # noqa: ANN001, ANN201
        attrs = dict(attrs)
        if self._depth:
            self._depth += 1
            css = attrs.get("class") or ""
            if "stat-label" in css or "stat-value" in css:
                self._field = ("label" if "stat-label" in css else "value", self._depth)
        elif (attrs.get("data-testid") or "").startswith("card-"):
            self._depth = 1
            self.cards.append({"id": attrs["data-testid"], "label": "", "value": ""})

    def handle_endtag(self, tag):  # noqa: ANN001, ANN201
        if self._depth:
            if self._field and self._field[1] == self._depth:
                self._field = None
            self._depth -= 1

    def handle_data(self, data):  # noqa: ANN001, ANN201
        if self._depth and self._field:
            card = self.cards[-1]
            card[self._field[0]] = re.sub(r"\s+", " ", card[self._field[0]] + data).strip()


def test_every_place_says_the_same_numbers(stack):
    tag = secrets.token_hex(3)
    campaign = imported(stack, f"numbers {tag}", 7000.0)
    other = imported(stack, f"numbers other {tag}", 7700.0)
    cid, analysis, summary = campaign["id"], campaign["analysis"], campaign["summary"]
    searched = analysis["searched"]
    assert [s["label"] for s in searched] == ["p99 latency ≤ 20 ms", "loss ≤ 2 %"] and all(s["repeats"] == 3 for s in searched)
    assert analysis["capacity"]["slo_source"] == "plan" and analysis["capacity"]["repeats"] == 3
    for found in searched:  # the mean of the three repetitions, never one repetition's
        assert found["value"] == pytest.approx(sum(r["value"] for r in found["per_repeat"]) / 3)
        assert found["ci_low"] < found["value"] < found["ci_high"]
    figures = {
        "search p99": searched[0]["value"], "search loss": searched[1]["value"], "capacity at SLO": analysis["capacity"]["value"],
        "ceiling": analysis["ceiling"]["achieved_rate"], "knee": analysis["knee"]["offered_rate"],
    }  # fmt: skip
    print("figures:", {k: round(v, 1) for k, v in figures.items()})

    # the comparison: a row per search criterion, capacity at SLO, the ceiling and the knee, each as the report says it
    answer = stack.api.get("/api/v1/compare", params=[("c", cid), ("c", other["id"])])
    assert answer.status_code == 200, answer.text
    comparison = answer.json()
    rows = {row["metric"]: row for row in comparison["headline"]}
    assert rows["search:latency_p99_ms:20"]["label"] == "Capacity found by the search at p99 latency ≤ 20 ms"
    assert rows["search:loss_pct:2"]["label"] == "Capacity found by the search at loss ≤ 2 %"
    compared = {"search p99": rows["search:latency_p99_ms:20"], "search loss": rows["search:loss_pct:2"],
                "capacity at SLO": rows["capacity_at_slo"], "ceiling": rows["max_achieved_rate"], "knee": rows["knee_rate"]}  # fmt: skip
    for name, row in compared.items():
        assert row["values"][str(cid)] == pytest.approx(figures[name]), name
    assert rows["search:latency_p99_ms:20"]["intervals"][str(cid)] == [searched[0]["ci_low"], searched[0]["ci_high"]]
    assert rows["search:loss_pct:2"]["verdicts"][str(other["id"])] == "better", "every criterion is compared, not only the first"
    assert rows["baseline_latency_ms"]["values"][str(cid)] == pytest.approx(summary["baseline_latency_ms"])

    # the share page's API, and the HTML files of the report and of the link
    share = stack.api.post(f"/api/v1/campaigns/{cid}/shares", json={"expires_in_s": 3600})
    assert share.status_code == 201, share.text
    token = urlsplit(share.json()["url"]).path.rsplit("/", 1)[-1]
    with httpx.Client(base_url=stack.api_url) as signed_out:  # a share link opens with no login
        shared_analysis = signed_out.get(f"/api/v1/shared/{token}").json()["campaign"]["analysis"]
    assert shared_analysis["searched"] == searched and shared_analysis["capacity"]["value"] == figures["capacity at SLO"]
    assert shared_analysis["ceiling"] == analysis["ceiling"] and shared_analysis["knee"] == analysis["knee"]
    report_page = stack.api.get(f"/api/v1/campaigns/{cid}/export.html", timeout=90).text
    link_page = stack.api.get(f"/api/v1/shared/{token}/export.html", timeout=90).text
    report_html, link_html = text_of(report_page), text_of(link_page)
    # the cards of the report, in its HTML file and in the link's (the app's own components draw both)
    for page in (report_page, link_page):
        cards = Cards(page).cards
        shown = {c["label"]: c["value"] for c in cards}
        print("cards:", shown)
        assert shown["Capacity at p99 latency ≤ 20 ms"].startswith(rate(figures["search p99"]) + " ["), shown
        assert shown["Capacity at loss ≤ 2 %"].startswith(rate(figures["search loss"]) + " ["), shown
        assert shown["Ceiling"] == rate(figures["ceiling"]) and shown["Knee (offered)"] == rate(figures["knee"]), shown
        assert [c["id"] for c in cards][:1] == ["card-capacity"], "the search's first criterion leads"
        low_card = re.fullmatch(r"([\d.]+) (µs|ms)", shown["Mean latency at low load"])
        low_ms = float(low_card[1]) / (1000 if low_card[2] == "µs" else 1)
        assert low_ms == pytest.approx(summary["baseline_latency_ms"], abs=5e-4), shown

    # `kneeboard campaigns show`
    shown = kb(stack, "campaigns", "show", str(cid))
    assert shown.returncode == 0, shown.stderr
    cli = shown.stdout

    for page, where in ((report_html, "the report's HTML file"), (link_html, "the link's HTML file"), (cli, "kneeboard campaigns show")):
        assert f"Capacity at p99 latency ≤ 20 ms" in page or "capacity at p99 latency ≤ 20 ms" in page, where
        for name, value in figures.items():
            assert rate(value) in page, f"{where} does not say the {name} {rate(value)}"
        assert f"≥ {rate(figures['ceiling'])}" not in page, f"{where}: the top load fell short, so the ceiling is no bound"
    low_cli = re.search(r"mean latency at low load ([\d.]+) ms", cli)
    assert float(low_cli[1]) == pytest.approx(summary["baseline_latency_ms"], rel=1e-3), cli
    # the conclusion leads with the search's capacities, as the cards do
    assert analysis["conclusion"].startswith("The capacity search found (the mean of 3 repetitions, each criterion searched alone) "
                                             f"capacity at p99 latency ≤ 20 ms: {rate(figures['search p99'])} [")


def sweep_document(name: str, p50_at: dict[float, float]) -> dict:
    """A dnsperf sweep, 3 repetitions, whose p50 at each rate is `p50_at[rate]` (±1 % by repetition)."""
    points = []
    for repeat, wobble in enumerate((0.99, 1.0, 1.01)):
        for rate, p50 in p50_at.items():
            sent = round(rate * 2)
            points.append({"phase": "saturation", "concurrency": 10, "offered_rate": rate, "duration_s": 2.0, "repeat": repeat,
                           "metrics": {"achieved_rate": rate, "latency_avg_ms": p50 * wobble * 1.2, "latency_p50_ms": p50 * wobble,
                                       "latency_p99_ms": p50 * wobble * 3, "sent": sent, "completed": sent, "lost": 0, "loss_pct": 0.0}})  # fmt: skip
    for seq, point in enumerate(points):
        point["seq"] = seq
    plan = {"name": name, "tool": "dnsperf", "target_id": None, "params": {"names": ["www.example.lab"]}, "pause_s": 0, "repeat": 3,
            "phases": [{"kind": "saturation", "concurrency": 10, "rate": list(p50_at), "duration_s": 2}]}  # fmt: skip
    head = {"name": name, "tool": "dnsperf", "agent": "local", "tags": ["numbers"], "plan": plan, "environment": {},
            "target": {"name": "numbers-dns", "kind": "dns", "host": "127.0.0.1", "port": 53, "tags": []}}
    return {"format": "kneeboard-campaign/1", "campaign": head, "points": points}


def test_a_row_at_low_load_is_judged_at_low_load(stack):
    """The same server at low load, 50 % slower near its limit: "p50 at low load" must not say worse (it did: +7 %
    "worse" beside "smallest detectable change 310 %", the verdict taken from the 40-50k points)."""
    ids = []
    for name, high in (("a", 1.0), ("b", 1.5)):
        body = sweep_document(f"low load {name} {secrets.token_hex(3)}", {1000.0: 0.20, 20000.0: 0.9 * high, 40000.0: 2.0 * high})
        response = stack.api.post("/api/v1/campaigns/import", files=[("file", ("c.json", json.dumps(body).encode()))])
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    rows = {r["metric"]: r for r in stack.api.get("/api/v1/compare", params=[("c", ids[0]), ("c", ids[1])]).json()["headline"]}
    low = rows["latency_p50_ms"]
    assert low["label"] == "Latency p50 at low load" and low["values"][str(ids[0])] == pytest.approx(0.20)
    assert low["verdicts"][str(ids[1])] in {"equivalent", "no detectable difference"}, low
    assert rows["baseline_latency_ms"]["verdicts"][str(ids[1])] in {"equivalent", "no detectable difference"}
    assert rows["max_achieved_rate"]["kinds"] == {str(i): "at_least" for i in ids}, "the top load kept up: the ceiling is a bound"
    verdicts = stack.api.get("/api/v1/compare", params=[("c", ids[0]), ("c", ids[1])]).json()["point_verdicts"][str(ids[1])]
    assert verdicts["overall"]["latency_p50_ms"]["verdict"] == "worse", "over the whole sweep it is worse: the low-load row must not say so"
