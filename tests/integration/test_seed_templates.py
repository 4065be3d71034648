"""Every seed's template, as its quick look (at most 6 points of 2 s), against the lab servers it is meant for: each
completes with its analysis, and a template with variants or several targets gets verdicts from the comparison, not
a ranking. Whole templates: `make bench-templates` (each within 10 minutes on 2 CPUs)."""

from __future__ import annotations

import time

from kneeboard.analysis import verdicts
from kneeboard.lab import namespace
from kneeboard.plans.templates import QUICK_DURATION_S, QUICK_POINTS
from kneeboard.stack import ROOT
from tests.integration.conftest import lab_target, skip_without_lab
from tests.integration.test_lab_campaigns import run

skip_without_lab()
VERDICTS = {verdicts.BETTER, verdicts.WORSE, verdicts.SAME, verdicts.FEW, verdicts.MIXED, verdicts.EQUIVALENT}


def run_template(stack, template: dict) -> tuple[list[dict], float]:
    """One campaign of the template's quick look per lab target; the campaigns and the seconds they took."""
    quick = stack.api.get(f"/api/v1/plans/templates/{template['id']}", params={"quick": True}).json()["plan"]
    began, campaigns = time.monotonic(), []
    for name in template["lab_targets"]:
        campaign, points = run(stack, {**quick, "target_id": lab_target(stack, name)}, timeout_s=120)
        assert campaign["status"] == "completed", (template["id"], name, [p["error"] for p in points])
        assert len(points) * len(template["lab_targets"]) <= QUICK_POINTS and all(p["duration_s"] <= QUICK_DURATION_S for p in points)
        analysis = stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["analysis"]
        assert analysis.get("conclusion") and not analysis.get("error"), (template["id"], analysis)
        campaigns.append({**campaign, "variants": list(dict.fromkeys(p["variant"] for p in points if p["variant"]))})
    return campaigns, time.monotonic() - began


def compared(stack, keys: list[str]) -> dict:
    """The comparison of `keys` (campaign or campaign@variant), the first the reference."""
    answer = stack.api.get("/api/v1/compare", params=[("c", k) for k in keys])
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_every_seed_template_runs_here_as_a_quick_look_with_its_analysis_and_verdicts(stack, lab):
    namespace.up(lab[0], devsim_binary=str(ROOT / "simulator" / "bin" / "devsim"))
    seeds = [t for t in stack.api.get("/api/v1/plans/templates").json() if t["seed"]]
    assert {t["seed"] for t in seeds} == {"000", "001", "002", "003", "004"}
    took = {}
    for template in seeds:
        campaigns, took[template["id"]] = run_template(stack, template)
        keys = ([f"{campaigns[0]['id']}@{v}" for v in campaigns[0]["variants"]] if len(campaigns) == 1
                else [str(c["id"]) for c in campaigns])  # fmt: skip
        if len(keys) > 1:
            rows = compared(stack, keys)["headline"]
            verdicts = {row["verdicts"][k] for row in rows for k in keys[1:] if row["verdicts"].get(k)}
            assert verdicts and verdicts <= VERDICTS, (template["id"], verdicts)
        if len(campaigns) > 1:  # seed 002: the balancers side by side, as the team would share them
            page = stack.api.get("/api/v1/compare/export.html", params=[("c", k) for k in keys])
            assert page.status_code == 200, page.text[:500]
            assert all(name in page.text for name in template["lab_targets"]) and any(v in page.text for v in verdicts), template["id"]
    print("\nfigures: quick looks: " + ", ".join(f"{k} {v:.0f} s" for k, v in took.items()) + f"; in all {sum(took.values()):.0f} s")
    assert sum(took.values()) <= 180, took
