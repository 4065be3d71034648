"""The lab under a FORWARD policy of DROP, as a running dockerd leaves it (issue 40): the agents' namespaces still
reach the servers under test, by the lab's own rules, which go again with the agents (root: the lab)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from kneeboard.lab import agents, namespace

from tests.integration.conftest import skip_without_lab

skip_without_lab()
if shutil.which("iptables") is None:  # optional for the product: without it the lab adds no FORWARD rules (lab/agents.py)
    pytest.skip("iptables is not installed (Debian: iptables, from scripts/install-deps.sh)", allow_module_level=True)


def policy() -> str:
    return subprocess.run(["iptables", "-S", "FORWARD"], capture_output=True, text=True, check=True).stdout.splitlines()[0].split()[-1]


def reaches_lab(i: int) -> bool:
    done = subprocess.run(["ip", "netns", "exec", agents.netns(i), "ping", "-c", "1", "-W", "1", namespace.LAB_ADDR],
                          capture_output=True, text=True)
    return done.returncode == 0


def test_agents_reach_the_lab_under_a_drop_policy_and_the_rules_leave_with_them(lab):
    before = policy()
    try:
        subprocess.run(["iptables", "-P", "FORWARD", "DROP"], check=True)
        agents.ensure(1)
        assert reaches_lab(1), "dockerd's DROP policy cut the agent off the lab"
        agents.ensure(1)  # again: the rules are added once
        rules = subprocess.run(["iptables", "-S", "FORWARD"], capture_output=True, text=True, check=True).stdout
        assert rules.count("kneeboard-lab") == 2, rules
        agents.remove()
        assert "kneeboard-lab" not in subprocess.run(["iptables", "-S", "FORWARD"], capture_output=True, text=True, check=True).stdout
        agents.ensure(1)
        subprocess.run(["iptables", "-D", *agents.forward_rules()[0]], check=True)
        assert not reaches_lab(1)  # without the lab's rule, the policy drops it: the test can fail
    finally:
        agents.remove()
        subprocess.run(["iptables", "-P", "FORWARD", before], check=True)
