"""`kneeboard run` as a subprocess against the real API and worker: each exit code, JUnit XML, the other commands.

The 98 case runs the same plan twice against the lab's unbound: first as the baseline, then
with a token bucket (tc tbf) on the lab's veth slower than the queries, so they queue and the
latency grows well past twice the baseline's (it needs root for the lab; skipped otherwise).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET

import pytest
import yaml

from kneeboard.lab import namespace

IMPOSSIBLE = "latency_avg_ms<0.000001"
SLOW_LINK = ["tbf", "rate", "96kbit", "burst", "1600", "latency", "50ms"]  # 80 % of 200 queries/s in 75-byte frames


def plan_doc(target_id: int, name: str, rate: int = 200, duration_s: float = 1, **extra) -> dict:
    """Three repetitions of one short low-rate dnsperf point."""
    return {"name": name, "tool": "dnsperf", "target_id": target_id,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 1},
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": rate, "duration_s": duration_s}],
            "pause_s": 0, "repeat": 3, **extra}  # fmt: skip


def kb(stack, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the CLI with the stack's URL and admin token."""
    env = {**stack.env, "KB_URL": stack.api_url, "KB_TOKEN": stack.admin_token}
    return subprocess.run([sys.executable, "-m", "kneeboard.cli", *args], env=env, capture_output=True, text=True, timeout=timeout)


def write_plan(folder, target_id: int, name: str, **extra) -> str:
    """Write a plan YAML into `folder` and return its path."""
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(plan_doc(target_id, name, **extra)))
    return str(path)


@pytest.fixture()
def plan_file(tmp_path, dns_target):
    """Write a plan YAML against the suite's unbound and return its path."""
    return lambda name, **extra: write_plan(tmp_path, dns_target["id"], name, **extra)


@pytest.fixture()
def lab_dns(stack, lab) -> dict:
    """A dns target on the lab's unbound (10.77.0.2:53, behind the veth kbh0<->kbl0)."""
    body = {"name": f"lab-dns-{uuid.uuid4().hex[:8]}", "kind": "dns", "host": namespace.LAB_ADDR, "port": namespace.DNS_PORT, "tags": ["lab"]}
    response = stack.api.post("/api/v1/targets", json=body)
    assert response.status_code == 201, response.text
    return response.json()


@contextlib.contextmanager
def shaped(dev: str):
    """A token bucket on `dev` below the plan's offered bytes: queries queue up to tbf's latency cap."""
    subprocess.run(["tc", "qdisc", "add", "dev", dev, "root", *SLOW_LINK], check=True)
    try:
        yield
    finally:
        subprocess.run(["tc", "qdisc", "del", "dev", dev, "root"], check=False)


def latencies(stack, campaign_id: int) -> list[float]:
    """latency_avg_ms of each of a campaign's points."""
    return [p["metrics"]["latency_avg_ms"] for p in stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()]


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


def test_the_same_plan_on_a_slowed_lab_exits_98(stack, lab_dns, tmp_path):
    path = write_plan(tmp_path, lab_dns["id"], "cli baseline", duration_s=2)
    first = kb(stack, "run", path, "--json", str(tmp_path / "a.json"))
    assert first.returncode == 0, first.stdout + first.stderr
    base_id = json.loads((tmp_path / "a.json").read_text())["campaign_id"]
    junit = tmp_path / "base.xml"
    with shaped(namespace.HOST_IF):
        done = kb(stack, "run", path, "--baseline", str(base_id), "--junit", str(junit), "--json", str(tmp_path / "b.json"))
    result = json.loads((tmp_path / "b.json").read_text())
    fast, slow = latencies(stack, base_id), latencies(stack, result["campaign_id"])
    print(f"\nfigures: lab DNS latency_avg_ms per repetition: fast {fast}, behind tbf {slow}")
    assert "(reused)" in done.stdout and done.returncode == 98, done.stdout + done.stderr
    assert sum(slow) >= 2 * sum(fast)
    assert result["baseline"]["outcome"] == "regression" and "latency" in result["baseline"]["detail"].lower()
    case = next(c for c in ET.parse(junit).getroot().iter("testcase") if c.get("classname") == "kneeboard.baseline")
    assert case.find("failure") is not None
    compared = kb(stack, "campaigns", "compare", str(base_id), str(result["campaign_id"]))
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
    unknown = kb(stack, "run", plan_file("cli usage"), "--threshold", "throughput_bps>5")  # iperf3's, not dnsperf's
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
