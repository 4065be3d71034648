"""The generator judged first: dnsperf kept to two queries outstanding cannot send 40,000 q/s to the suite's unbound, and the
point says so (cause, suggestion), the ceiling and the knee leave it out; with the cap raised the same load is sent and judged
normally. Real worker, real dnsperf, real unbound; 1.5 s points."""

from __future__ import annotations

from tests.support.campaigns import launch_and_wait

HIGH = 40_000  # two queries outstanding send ~10-22k q/s here (0.03 ms answers, plus dnsperf's hand-back of each slot)
RATES = [100, 200, 400, HIGH]  # low enough for two slots even when a busy host hands each back only after a few ms


def run_campaign(stack, target_id: int, max_outstanding: int) -> tuple[dict, list[dict]]:
    """A saturation sweep with dnsperf's outstanding cap at `max_outstanding`; the campaign and its points once completed."""
    plan = {"name": f"generator judged, -q {max_outstanding}", "tool": "dnsperf", "target_id": target_id, "pause_s": 0,
            "params": {"names": ["www.example.lab"], "timeout_s": 1, "latency_capture": False, "max_outstanding": max_outstanding},
            "phases": [{"kind": "saturation", "concurrency": 1, "rate": RATES, "duration_s": 1.5}]}  # fmt: skip
    campaign, points = launch_and_wait(stack, plan)
    assert campaign["status"] == "completed", campaign
    return campaign, points


def figures(label: str, points: list[dict]) -> str:
    return f"{label}: " + ", ".join(f"{p['offered_rate']:g} → sent {p['extra']['generator']['sent_pct']} % "
                                      f"({p['extra']['generator']['cause'] or 'sent'})" for p in points)  # fmt: skip


def test_a_load_the_generator_cannot_send_is_marked_left_out_and_sent_once_the_cap_is_raised(stack, dns_target):
    capped, points = run_campaign(stack, dns_target["id"], max_outstanding=2)
    raised, raised_points = run_campaign(stack, dns_target["id"], max_outstanding=1000)
    print(f"\nfigures: {figures('-q 2', points)}; {figures('-q 1000', raised_points)}")

    evidence = stack.api.get(f"/api/v1/points/{points[-1]['id']}").json()
    assert evidence["argv"][evidence["argv"].index("-q") + 1] == "2" and evidence["offered_rate"] == HIGH
    verdict = evidence["extra"]["generator"]
    assert verdict["limited"] is True and verdict["cause"] == "outstanding" and verdict["asked"] == HIGH * 1.5
    assert verdict["sent"] == evidence["metrics"]["sent"] and verdict["sent_pct"] < 97
    assert "dnsperf keeps at most 2 queries outstanding" in verdict["detail"] and verdict["suggestion"].startswith("raise max_outstanding to ≥ ")
    warning = next(w for w in evidence["warnings"] if w.startswith("generator-limited"))
    assert "outstanding" in warning and "suggestion: raise max_outstanding" in warning
    judged = [p for p in points if not p["extra"]["generator"]["limited"]]
    assert len(judged) >= 2, figures("-q 2", points)  # the low loads are sent (a very busy host may still starve one)

    analysis = capped["analysis"]
    left_out = [(p["offered_rate"], p["extra"]["generator"]["cause"]) for p in points if p["extra"]["generator"]["limited"]]
    assert [(g["offered_rate"], g["cause"]) for g in analysis["generator_limited"]] == left_out and left_out[-1] == (HIGH, "outstanding")
    assert analysis["generator_limited"][-1]["suggestion"] == verdict["suggestion"]
    top = max(p["metrics"]["achieved_rate"] for p in judged)
    # the ceiling is the server's: the highest of the points it was sent (the limited point's own rate, 0.7-8 % of 40,000
    # here, may be above or below it; tests/unit/test_analysis_generator.py holds both cases)
    assert analysis["ceiling"]["achieved_rate"] == top, "the ceiling is the server's, not the generator's"
    assert capped["summary"]["max_achieved_rate"] == top
    assert analysis["knee"] is None or analysis["knee"]["offered_rate"] < HIGH

    sent = raised_points[-1]["extra"]["generator"]
    assert sent["limited"] is False and sent["cause"] is None and sent["sent_pct"] >= 97, figures("-q 1000", raised_points)
    assert not any(w.startswith("generator-limited") for w in raised_points[-1]["warnings"])
    assert raised["analysis"]["generator_limited"] == []
    assert raised["analysis"]["ceiling"]["achieved_rate"] >= 0.9 * HIGH, "judged normally: the server kept up with the load it was sent"
