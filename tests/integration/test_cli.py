"""`kneeboard run` as a subprocess against the real API and worker: each exit code, JUnit XML, the other commands.

The 98 case compares with an honest synthetic baseline: campaign A is really run, exported as
Kneeboard JSON, its latencies halved, and imported (POST /campaigns/import, a real feature) as B;
running the same plan again against B must be a significant latency regression.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import yaml

IMPOSSIBLE = "latency_avg_ms<0.000001"


def plan_doc(target_id: int, name: str, rate: int = 200, duration_s: float = 1, **extra) -> dict:
    """Three repetitions of one short low-rate point against the suite's unbound."""
    return {"name": name, "tool": "dnsperf", "target_id": target_id,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 1},
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": rate, "duration_s": duration_s}],
            "pause_s": 0, "repeat": 3, **extra}  # fmt: skip


def kb(stack, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the CLI with the stack's URL and admin token."""
    env = {**stack.env, "KB_URL": stack.api_url, "KB_TOKEN": stack.admin_token}
    return subprocess.run([sys.executable, "-m", "kneeboard.cli", *args], env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture()
def plan_file(tmp_path, dns_target):
    """Write a plan YAML and return its path."""

    def write(name: str, **extra) -> str:
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(plan_doc(dns_target["id"], name, **extra)))
        return str(path)

    return write


def test_run_passes_then_reuses_the_plan(stack, plan_file, tmp_path):
    path = plan_file("cli pass")
    done = kb(stack, "run", path, "--threshold", "latency_avg_ms<1000", "--json", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["status"] == "completed" and result["thresholds"][0]["passed"] and result["report_url"].endswith(f"/campaigns/{result['campaign_id']}")
    assert "(stored)" in done.stdout and "report:" in done.stdout
    again = kb(stack, "run", path, "--no-wait")
    assert again.returncode == 0 and "(reused)" in again.stdout, again.stdout + again.stderr


def test_impossible_threshold_from_the_plan_file_exits_99_with_junit(stack, plan_file, tmp_path):
    path = plan_file("cli threshold", thresholds=[IMPOSSIBLE])
    junit = tmp_path / "out.xml"
    done = kb(stack, "run", path, "--threshold", "loss_pct<=100", "--junit", str(junit))
    assert done.returncode == 99, done.stdout + done.stderr
    assert "point 1 (baseline c=1 rate=200" in done.stdout  # says which point broke it
    suite = ET.parse(junit).getroot().find("testsuite")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases[IMPOSSIBLE].find("failure") is not None and cases["loss_pct<=100"].find("failure") is None
    assert suite.get("failures") == "1" and suite.get("tests") == "3"


def test_regression_against_a_baseline_with_half_the_latency_exits_98(stack, plan_file, tmp_path):
    path = plan_file("cli baseline", rate=1000, duration_s=2, repeat=5)  # steadier means: the test has the power to see 2×
    assert kb(stack, "run", path).returncode == 0  # a warm-up: the first run after start-up is slower (cold unbound, CPU)
    first = kb(stack, "run", path, "--json", str(tmp_path / "a.json"))
    assert first.returncode == 0, first.stdout + first.stderr
    campaign_id = json.loads((tmp_path / "a.json").read_text())["campaign_id"]
    export = stack.api.get(f"/api/v1/campaigns/{campaign_id}/export.json").json()
    for point in export["points"]:
        point["metrics"] = {k: v / 2 if k.startswith("latency_") and isinstance(v, (int, float)) else v for k, v in point["metrics"].items()}
    files = {"file": ("halved.json", json.dumps(export), "application/json")}
    imported = stack.api.post("/api/v1/campaigns/import", files=files, data={"name": "baseline with half the latency"})
    assert imported.status_code == 201, imported.text
    junit = tmp_path / "base.xml"
    done = kb(stack, "run", path, "--baseline", str(imported.json()["id"]), "--junit", str(junit), "--json", str(tmp_path / "b.json"))
    assert done.returncode == 98, done.stdout + done.stderr
    baseline = json.loads((tmp_path / "b.json").read_text())["baseline"]
    assert baseline["outcome"] == "regression" and "latency" in baseline["detail"].lower()
    case = next(c for c in ET.parse(junit).getroot().iter("testcase") if c.get("classname") == "kneeboard.baseline")
    assert case.find("failure") is not None
    compared = kb(stack, "campaigns", "compare", str(imported.json()["id"]), str(campaign_id))
    assert compared.returncode == 0 and "regression" in compared.stdout


def test_inconclusive_without_repeats_warns_or_exits_97_with_strict(stack, plan_file, tmp_path):
    base = kb(stack, "run", plan_file("cli single", repeat=1), "--json", str(tmp_path / "s.json"))
    assert base.returncode == 0, base.stdout + base.stderr
    base_id = str(json.loads((tmp_path / "s.json").read_text())["campaign_id"])
    strict = kb(stack, "run", plan_file("cli single", repeat=1), "--baseline", base_id, "--strict")
    assert strict.returncode == 97, strict.stdout + strict.stderr
    assert "inconclusive" in strict.stdout


def test_bad_plan_and_bad_usage_exit_2(stack, plan_file, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({**plan_doc(1, "bad"), "phases": [{"kind": "baseline", "rate": 10, "duration_s": -1}]}))
    done = kb(stack, "run", str(bad))
    assert done.returncode == 2 and "duration_s" in done.stderr, done.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n")
    assert kb(stack, "run", str(broken)).returncode == 2
    unknown = kb(stack, "run", plan_file("cli usage"), "--threshold", "latency_p99_ms<5")
    assert unknown.returncode == 2 and "unknown metric" in unknown.stderr
    assert kb(stack, "run", plan_file("cli usage"), "--threshold", "latency_avg_ms=5").returncode == 2
    assert kb(stack, "run", "--nonsense").returncode == 2


def test_plans_campaigns_and_import_commands(stack, plan_file, tmp_path):
    path = plan_file("cli commands")
    stored = kb(stack, "import", path)
    assert stored.returncode == 0 and "stored" in stored.stdout, stored.stderr
    plan_id = stored.stdout.split()[1]
    assert "cli commands" in kb(stack, "plans", "list").stdout
    exported = kb(stack, "plans", "export", plan_id)
    assert exported.returncode == 0 and yaml.safe_load(exported.stdout)["name"] == "cli commands"
    launched = kb(stack, "run", path, "--no-wait")
    campaign_id = launched.stdout.split("campaign ")[1].split()[0]
    assert kb(stack, "campaigns", "cancel", campaign_id).returncode == 0
    listed = kb(stack, "campaigns", "list", "--tag", "cli")
    assert listed.returncode == 0 and campaign_id in listed.stdout
    assert kb(stack, "campaigns", "show", campaign_id).returncode == 0
    assert kb(stack, "campaigns", "show", "999999").returncode == 2
