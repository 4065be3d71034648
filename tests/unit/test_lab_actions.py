"""Lab actions: the registry, validation (→ 422) and the RPS mask format. Nothing is applied here."""

from __future__ import annotations

import pytest

from kneeboard.lab import actions
from kneeboard.lab.actions import ActionError, all_cpus_mask, list_actions, validate_setting
from kneeboard.lab.system import cpu_count


def test_list_actions_names_and_ranges():
    listed = {a["name"]: a for a in list_actions()}
    assert set(listed) == {"lab.veth_queues", "lab.rps", "lab.gro", "lab.threaded_napi", "lab.coredns_config", "lab.coredns_shipped_config", "lab.adguard_config",
                            "lab.bind_config", "lab.haproxy_config", "lab.caddy_config", "lab.loss_permille", "lab.rate_mbit",
                            "lab.delay_ms"}
    assert (listed["lab.loss_permille"]["min"], listed["lab.loss_permille"]["max"], listed["lab.loss_permille"]["default"]) == (0, 1000, 0)
    assert listed["lab.veth_queues"]["type"] == "int"
    assert (listed["lab.veth_queues"]["min"], listed["lab.veth_queues"]["max"]) == (1, cpu_count())
    assert listed["lab.gro"]["type"] == "bool" and listed["lab.gro"]["min"] is None
    assert all(a["description"] for a in listed.values())


@pytest.mark.parametrize("value", [-1, 1001, "10; nft flush ruleset", 1.5, None, True])
def test_loss_out_of_range_or_not_an_integer_is_refused_naming_the_action(value):
    with pytest.raises(ActionError) as exc:
        validate_setting("lab.loss_permille", value)
    assert exc.value.field == "lab.loss_permille"


@pytest.mark.parametrize("value", [1, "1", cpu_count(), str(cpu_count())])
def test_veth_queues_good(value):
    assert validate_setting("lab.veth_queues", value) == int(value)


@pytest.mark.parametrize("value", [0, -1, cpu_count() + 1, 1000, "4; rm -rf /", "-L", 1.5, None, True, [2]])
def test_veth_queues_bad(value):
    with pytest.raises(ActionError) as err:
        validate_setting("lab.veth_queues", value)
    assert err.value.field == "lab.veth_queues"


@pytest.mark.parametrize("name", ["lab.rps", "lab.gro", "lab.threaded_napi"])
@pytest.mark.parametrize("value,expected", [(True, True), (False, False), ("on", True), ("off", False), (1, True), (0, False), ("TRUE", True)])
def test_bool_good(name, value, expected):
    assert validate_setting(name, value) is expected


@pytest.mark.parametrize("value", ["maybe", 2, -1, None, "", "on off", 0.5])
def test_bool_bad(value):
    with pytest.raises(ActionError) as err:
        validate_setting("lab.gro", value)
    assert err.value.field == "lab.gro"


@pytest.mark.parametrize("name", ["lab.nope", "nic_queues", "", "ethtool -L eth0 combined 1", "LAB.GRO"])
def test_unknown_action(name):
    with pytest.raises(ActionError) as err:
        validate_setting(name, 1)
    assert err.value.field == "action"
    assert "unknown action" in err.value.message


def test_action_error_is_a_value_error():
    assert issubclass(ActionError, ValueError)


def test_apply_validates_before_touching_anything(monkeypatch):
    monkeypatch.setattr(actions, "status", lambda **_: pytest.fail("status must not be reached"))
    with pytest.raises(ActionError):
        actions.apply_setting("lab.veth_queues", 0)


@pytest.mark.parametrize("count,mask", [(1, "1"), (2, "3"), (4, "f"), (32, "ffffffff"), (33, "1,ffffffff"), (40, "ff,ffffffff"), (64, "ffffffff,ffffffff")])
def test_all_cpus_mask(count, mask):
    assert all_cpus_mask(count) == mask
