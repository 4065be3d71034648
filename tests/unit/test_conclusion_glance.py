"""The report read at a glance (issue 47, item 4): a headline of two or three sentences with the numbers (where it is
fine, where it breaks, what limits it), then the detail in sections; no phrase said twice in a row.

Read on the three real campaigns of tests/fixtures/real-campaigns and on 300 campaigns generated from queueing models
(tests/support/campaign_model.py), whose headline figures are checked against the analysis' own."""

from __future__ import annotations

import io

import re

import pytest

from kneeboard.report import analyse
from kneeboard.analysis.conclusion import SECTIONS, dedupe, rate_text
from tests.support.campaign_model import campaigns
from tests.unit.test_real_campaigns import analysed

SENTENCE_END = re.compile(r"(?<=[a-z0-9%)])\.\s+(?=[A-Z])")


def repeated_phrase(text: str) -> str | None:
    """A phrase of 2–6 words (no figure in it) said twice in a row, read word by word (punctuation aside, but not across
    a parenthesis: "at 1.2 ms mean latency); mean latency rose" closes an aside first), else None."""
    for part in re.split(r"[()]", text):
        words = re.findall(r"[\w'’]+", part.lower())
        for n in range(2, 7):
            for i in range(len(words) - 2 * n + 1):
                phrase = words[i : i + n]
                if phrase == words[i + n : i + 2 * n] and not any(w[0].isdigit() for w in phrase):
                    return " ".join(phrase)
    return None


def sentences(text: str) -> list[str]:
    """A text's sentences (a full stop inside a figure, "1.18 ms", does not end one)."""
    return [s for s in SENTENCE_END.split(text) if s.strip()]


@pytest.fixture(scope="module")
def real():
    return {name: analysed(name) for name in ("adguard-seed000-template.json", "coredns-minimal-untuned.json", "coredns-log-untuned.json")}


def test_dedupe_keeps_a_phrase_said_twice_in_a_row_once():
    assert repeated_phrase("No bottleneck named: no bottleneck named: x") == "no bottleneck named"  # the checker catches it
    assert dedupe("No bottleneck named: no bottleneck named: nothing was read.") == "No bottleneck named: nothing was read."
    assert dedupe("Bottleneck: bottleneck: bottleneck: x") == "Bottleneck: x"
    assert dedupe("the host's CPUs; the host's CPUs, shared") == "the host's CPUs, shared"
    # figures, and a phrase that only begins another, stay
    assert dedupe("0.2 ms, 0.2 ms at 10,000") == "0.2 ms, 0.2 ms at 10,000"
    assert dedupe("Knee: knee of the latency curve") == "Knee: knee of the latency curve"


def test_the_adguard_headline_says_where_it_is_fine_where_it_breaks_and_what_limits_it(real):
    result = real["adguard-seed000-template.json"]
    head = result["headline"]
    assert 2 <= len(sentences(head)) <= 3, head
    green = next(z for z in result["zones"] if z["zone"] == "green")
    assert f"up to about {rate_text(green['to_rate'], 'qps')} offered" in head
    assert f"the knee, {rate_text(result['knee']['offered_rate'], 'qps')} offered" in head
    top = result["ceiling"]
    assert f"is {rate_text(top['achieved_rate'], 'qps')} at {rate_text(top['offered_rate'], 'qps')} offered, measured" in head
    assert "lower bound" not in head
    assert "What limits it: " in head and "host's CPUs" in head and "100 %" in head  # the bottleneck, with its figure


def test_the_coredns_headlines_say_the_saturation_seen_never_nothing_near_saturation(real):
    for name in ("coredns-minimal-untuned.json", "coredns-log-untuned.json"):
        result = real[name]
        head = result["headline"]
        assert 2 <= len(sentences(head)) <= 3, head
        assert "nothing near saturation" not in head.lower() and "nothing near saturation" not in result["conclusion"].lower()
        assert "What limits it is not named: saturation seen at" in head and "not read: drop counters" in head


def test_the_sections_are_the_detail_in_order_and_the_conclusion_keeps_them_as_one_paragraph(real):
    for result in real.values():
        for text in (result["headline"], *(s["text"] for s in result["sections"])):
            assert repeated_phrase(text) is None, text
        keys = [s["key"] for s in result["sections"]]
        assert keys == [k for k in SECTIONS if k in keys] and len(set(keys)) == len(keys)
        assert all(s["title"] == SECTIONS[s["key"]] and s["text"] for s in result["sections"])
        assert result["conclusion"] == " ".join(s["text"] for s in result["sections"])
    adguard = {s["key"]: s["text"] for s in real["adguard-seed000-template.json"]["sections"]}
    assert "measured: the higher loads achieved less" in adguard["ceiling"]  # the ceiling's own statement, not a bare figure
    assert "drifting: p50 latency" in adguard["stability"]  # the metric that drifted


def test_on_generated_campaigns_every_headline_is_two_or_three_sentences_with_no_phrase_said_twice():
    """300 campaigns of every kind the model makes (generator-limited, stopping below capacity, falling past it…)."""
    for c in campaigns(300, seed=4747):
        result = analyse(c.points, c.samples, **c.options)
        head = result["headline"]
        assert 1 <= len(sentences(head)) <= 3, head
        for text in (head, *(s["text"] for s in result["sections"])):
            assert repeated_phrase(text) is None, text
        if result["knee"]:
            assert "breaks at the knee" in head
        if result["ceiling"]:
            assert "ceiling (highest mean achieved rate) is " in head
            assert ("lower bound" in head) == bool(result["ceiling"]["bound"]), head
        if result["generator_limited"]:
            assert "the load generator did not send" in head


def test_the_cli_prints_the_headline_then_a_line_per_section(real):
    from kneeboard.client import output

    analysis = real["adguard-seed000-template.json"]
    campaign = {"id": 1, "name": "adguard", "status": "completed", "progress": {"total": 9},
                "summary": {"points_completed": 9, "points_failed": 0, "max_achieved_rate": 33897.0, "baseline_latency_ms": 0.18,
                            "loss_pct": 0.1}, "analysis": {**analysis, "unit": "qps"}}  # fmt: skip
    out = io.StringIO()  # given: the default stream is the sys.stdout of when the module was imported
    output.summary(campaign, out=out)
    lines = out.getvalue().splitlines()
    at = lines.index(f"  {analysis['headline']}")
    assert lines[at + 1 :] == [f"  · {s['text']}" for s in analysis["sections"]]
    older = output.conclusion_lines({"conclusion": "one paragraph"})
    assert older == ["one paragraph"]
