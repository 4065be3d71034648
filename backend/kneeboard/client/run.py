"""`kneeboard run PLAN.yaml`: store the plan (or reuse it), launch, follow, then gate on thresholds and a baseline."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kneeboard.client import exits, junit, output, plan_file
from kneeboard.client.http import ApiError, Client
from kneeboard.gate import BaselineOutcome, Threshold, ThresholdResult, baseline_outcome, check_thresholds, parse_threshold
from kneeboard.states import CAMPAIGN_TERMINAL

TERMINAL = CAMPAIGN_TERMINAL
PINNED_TAG = "pinned"


class UsageError(Exception):
    """A bad plan, threshold or baseline: exit 2."""


@dataclass
class Verdict:
    """Everything the gate found, and the exit code it leads to."""

    campaign: dict[str, Any]
    thresholds: list[ThresholdResult] = field(default_factory=list)
    baseline_id: int | None = None
    baseline: BaselineOutcome | None = None
    next_steps: list[str] = field(default_factory=list)  # per undecided headline row against the baseline, what would decide it

    def exit_code(self, strict: bool) -> int:
        """1 for a campaign that did not complete, then 99, 98, 97 (with --strict), else 0."""
        if self.campaign["status"] != "completed":
            return exits.CAMPAIGN_FAILED
        if any(not r.passed for r in self.thresholds):
            return exits.THRESHOLD
        if self.baseline and self.baseline.outcome == "regression":
            return exits.REGRESSION
        if self.baseline and self.baseline.outcome == "inconclusive" and strict:
            return exits.INCONCLUSIVE
        return exits.OK


def _tool(client: Client, name: str) -> dict[str, Any]:
    tool = next((t for t in client.get("/tools") if t["name"] == name), None)
    if tool is None:
        raise UsageError(f"tool: unknown tool {name!r}")
    return tool


def _thresholds(texts: list[str], tool: dict[str, Any]) -> list[Threshold]:
    metrics = {m["name"] for m in tool["metrics"]}
    try:
        return [parse_threshold(t, metrics) for t in texts]
    except ValueError as exc:
        raise UsageError(f"thresholds: {exc}") from None


def _baseline(client: Client, baseline: str | None, plan: dict[str, Any]) -> int | None:
    """The baseline campaign id: a number, or `latest-pinned`: the plan's pinned baseline (PUT /plans/{id}/baseline),
    else the newest completed campaign tagged pinned with the same tool and target."""
    if baseline is None:
        return None
    if baseline == "latest-pinned" and plan.get("baseline_campaign_id"):
        return plan["baseline_campaign_id"]
    if baseline == "latest-pinned":
        page = client.get("/campaigns", tag=PINNED_TAG, status="completed", tool=plan["tool"], target_id=plan["target_id"], limit=1)
        if not page["items"]:
            raise UsageError(f"--baseline latest-pinned: no completed {plan['tool']} campaign on target {plan['target_id']} is tagged {PINNED_TAG!r}")
        return page["items"][0]["id"]
    if not baseline.isdigit():
        raise UsageError(f"--baseline: {baseline!r} is not a campaign id or latest-pinned")
    try:
        return client.get(f"/campaigns/{int(baseline)}")["id"]
    except ApiError as exc:
        raise UsageError(f"--baseline: {exc}") from None


def _follow(client: Client, campaign_id: int, headline: str | None, progress: output.Progress, poll_s: float) -> dict[str, Any]:
    while True:
        campaign = client.get(f"/campaigns/{campaign_id}")
        points = client.get(f"/campaigns/{campaign_id}/points")
        progress.show(campaign, points, headline)
        if campaign["status"] in TERMINAL:
            progress.end()
            return campaign
        time.sleep(poll_s)


def _judge(client: Client, campaign: dict[str, Any], thresholds: list[Threshold], baseline_id: int | None) -> Verdict:
    verdict = Verdict(campaign, baseline_id=baseline_id)
    if campaign["status"] != "completed":
        return verdict
    verdict.thresholds = check_thresholds(thresholds, client.get(f"/campaigns/{campaign['id']}/points"))
    if baseline_id is not None:
        comparison = client.request("GET", "/compare", params=[("c", str(baseline_id)), ("c", str(campaign["id"]))])
        verdict.baseline = baseline_outcome(comparison, str(campaign["id"]))
        verdict.next_steps = output.next_steps(comparison, str(campaign["id"]))
    return verdict


def _print(verdict: Verdict, strict: bool, out=sys.stdout) -> None:  # noqa: ANN001
    for result in verdict.thresholds:
        print(f"  threshold {result.threshold}: {'pass' if result.passed else 'FAIL'}", file=out)
        for failure in result.failures[:10]:
            print(f"    {failure}", file=out)
    if verdict.baseline is not None:
        outcome = verdict.baseline
        label = {"pass": "pass", "regression": "REGRESSION", "inconclusive": "inconclusive" + (" (strict: FAIL)" if strict else " (warning)")}
        print(f"  baseline {verdict.baseline_id}: {label[outcome.outcome]}: {outcome.detail}", file=out)
        for line in verdict.next_steps:
            print(f"    undecided: {line}", file=out)


def _cases(verdict: Verdict, strict: bool) -> list[junit.Case]:
    status = verdict.campaign["status"]
    cases = [junit.Case("kneeboard.campaign", f"campaign {verdict.campaign['id']}",
                        None if status == "completed" else f"campaign {status}", verdict.campaign.get("error") or "")]  # fmt: skip
    for r in verdict.thresholds:
        cases.append(junit.Case("kneeboard.thresholds", str(r.threshold), None if r.passed else f"{len(r.failures)} point(s) broke {r.threshold}",
                                "\n".join(r.failures)))  # fmt: skip
    if verdict.baseline is not None:
        b = verdict.baseline
        failed = b.outcome == "regression" or (b.outcome == "inconclusive" and strict)
        cases.append(junit.Case("kneeboard.baseline", f"baseline {verdict.baseline_id}", f"{b.outcome}: {b.detail}" if failed else None,
                                b.detail, skipped=b.detail if b.outcome == "inconclusive" and not strict else None))  # fmt: skip
    return cases


def _json_report(verdict: Verdict, code: int, client: Client) -> dict[str, Any]:
    return {
        "campaign_id": verdict.campaign["id"], "status": verdict.campaign["status"], "exit_code": code,
        "report_url": client.report_url(verdict.campaign["id"]), "summary": verdict.campaign["summary"],
        "thresholds": [{"threshold": str(r.threshold), "passed": r.passed, "failures": r.failures} for r in verdict.thresholds],
        "baseline": None if verdict.baseline is None else {"campaign_id": verdict.baseline_id, "outcome": verdict.baseline.outcome,
                                                           "detail": verdict.baseline.detail},
    }  # fmt: skip


def run(args: argparse.Namespace, client: Client) -> int:
    """The whole `kneeboard run`; returns the exit code."""
    started = time.monotonic()
    try:
        document, file_thresholds = plan_file.read(Path(args.plan))
    except plan_file.PlanFileError as exc:
        raise UsageError(str(exc)) from None
    tool = _tool(client, str(document.get("tool")))
    thresholds = _thresholds(file_thresholds + list(args.threshold or []), tool)
    try:
        plan, reused = plan_file.store(client, document)
    except ApiError as exc:
        if exc.status in (400, 404, 409, 413, 422):
            raise UsageError(str(exc)) from None
        raise
    baseline_id = _baseline(client, args.baseline, plan)
    print(f"plan {plan['id']} {plan['name']!r} ({'reused' if reused else 'stored'})", flush=True)
    try:
        campaign = client.post("/campaigns", json={"plan_id": plan["id"], "tags": ["cli"]})
    except ApiError as exc:
        if exc.status == 422:
            raise UsageError(str(exc)) from None
        raise
    print(f"campaign {campaign['id']} queued: {client.report_url(campaign['id'])}", flush=True)
    if not args.wait:
        return exits.OK
    campaign = _follow(client, campaign["id"], tool.get("headline"), output.Progress(), args.poll)
    verdict = _judge(client, campaign, thresholds, baseline_id)
    output.summary(campaign)
    _print(verdict, args.strict)
    code = verdict.exit_code(args.strict)
    if args.junit:
        junit.write(Path(args.junit), _cases(verdict, args.strict), f"kneeboard {plan['name']}", time.monotonic() - started)
    if args.json:
        Path(args.json).write_text(json.dumps(_json_report(verdict, code, client), indent=1, default=str) + "\n", encoding="utf-8")
    print(f"report: {client.report_url(campaign['id'])}")
    print(f"exit {code}" + {0: "", 1: " (campaign did not complete)", 99: " (threshold failed)", 98: " (regression)", 97: " (inconclusive)"}[code])
    return code
