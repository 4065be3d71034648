"""The lab's agent namespaces: names, addresses, the agents' environment (no system touched),
and a devsim point's time limit, which counts its connection ramp."""

from __future__ import annotations

import pytest

from kneeboard.cli import _parser
from kneeboard.lab import agents
from kneeboard.tools.base import PointSpec
from kneeboard.tools.registry import adapter


def test_each_agent_has_its_own_namespace_address_and_name():
    assert [(agents.netns(i), agents.address(i), agents.agent_name(i)) for i in (1, 4)] == [
        ("kb-agent-1", "10.77.1.11", "agent-1"), ("kb-agent-4", "10.77.1.14", "agent-4")]
    with pytest.raises(ValueError, match="AGENTS must be 1…16"):
        agents.ensure(17)


def test_agents_get_no_database_broker_or_admin_credentials(monkeypatch):
    for name in agents.SECRET_ENV:
        monkeypatch.setenv(name, "secret")
    env = agents.agent_env("kb_token")
    assert not set(agents.SECRET_ENV) & set(env) and env["KB_AGENT_TOKEN"] == "kb_token"


def test_up_takes_agents_from_the_environment_and_refuses_bad_counts(monkeypatch, capsys):
    monkeypatch.setenv("AGENTS", "3")
    assert _parser().parse_args(["up"]).agents == 3
    assert _parser().parse_args(["up", "--agents", "0"]).agents == 0
    for bad in ("17", "-1", "x"):
        with pytest.raises(SystemExit):
            _parser().parse_args(["up", "--agents", bad])
        assert "is not a count 0-16" in capsys.readouterr().err


def test_a_devsim_point_may_run_its_ramp_and_a_login_timeout_beyond_its_duration():
    spec = PointSpec(host="10.77.0.2", port=7000, concurrency=100_000, rate=10_000.0, duration_s=5,
                     params={"ramp_per_s": 1000, "login_timeout_s": 30})
    assert adapter("devsim").time_limit_s(spec, 10) == 100 + 30 + 5 + 10
    assert adapter("dnsperf").time_limit_s(PointSpec(host="127.0.0.1", port=53, concurrency=1, rate=1.0, duration_s=5,
                                                     params={"timeout_s": 2}), 10) == 5 + 10 + 2
