"""Issue 47, item 5, through the API and the CLI: the two real CoreDNS campaigns (tests/fixtures/real-campaigns, 3
repetitions a load) imported and compared; every undecided headline row says the repetitions that would decide a 10 %
change, computed from the spread those repetitions measured, and the CLI prints them."""

from __future__ import annotations

from pathlib import Path

from tests.integration.test_cli import kb

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-campaigns"
UNDECIDED = {"no detectable difference", "not enough data"}


def _import(stack, name: str) -> int:
    response = stack.api.post("/api/v1/campaigns/import", files=[("file", (name, (FIXTURES / name).read_bytes()))])
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_the_coredns_pair_says_per_undecided_row_the_repetitions_that_would_decide_a_10_percent_change(stack):
    minimal, logged = _import(stack, "coredns-minimal-untuned.json"), _import(stack, "coredns-log-untuned.json")
    body = stack.api.get("/api/v1/compare", params=[("c", minimal), ("c", logged)]).json()
    key = str(logged)
    undecided = [row for row in body["headline"] if row["verdicts"].get(key) in UNDECIDED]
    assert undecided, [(row["metric"], row["verdicts"]) for row in body["headline"]]
    for row in undecided:
        step = row["next_steps"][key]
        print(f"\nfigures: {row['metric']}: {row['verdicts'][key]}: {step and step['text']}")
        assert step is not None and step["change_pct"] == 10, row
        if step["repetitions"] is not None:  # a spread was measured: 3 repetitions a side
            assert step["now"] == 3 and step["repetitions"] >= 3 and step["detectable_pct"] > 0
            assert f"{step['repetitions']} repetitions a side" in step["text"] or "already detect" in step["text"]
    decided = [row for row in body["headline"] if row["verdicts"].get(key) not in UNDECIDED]
    assert all(row["next_steps"].get(key) is None for row in decided)
    printed = kb(stack, "campaigns", "compare", str(minimal), str(logged))
    assert printed.returncode == 0, printed.stdout + printed.stderr
    print(printed.stdout)
    for row in undecided:
        assert f"{row['label']}: {row['next_steps'][key]['text']}" in printed.stdout
