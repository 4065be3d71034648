"""The variant-setting registry: a name goes to the provider owning its prefix, an unowned name is refused, and the lab
registers itself at start (tests/conftest.py calls extensions.register_all, as every process does)."""

from __future__ import annotations

import pytest

from kneeboard import variant_settings as registry
from kneeboard.lab.actions import ActionError
from kneeboard.variant_settings import SettingProvider, SettingRefused


@pytest.fixture
def probe():
    """A provider of the test's own under `probe.` (the registry's neighbour), removed afterwards."""
    values = {"probe.knob": 1}
    calls: list[tuple] = []

    def validate(name: str, value):
        if name not in values:
            raise SettingRefused(name, "not a probe setting")
        if not isinstance(value, int) or not 1 <= value <= 2:
            raise SettingRefused(name, f"{value!r} is not within 1–2")
        return value

    def apply(name: str, value):
        calls.append(("apply", name, value))
        values[name] = validate(name, value)
        return values[name]

    provider = SettingProvider("probe.", names=lambda: list(values), validate=validate, apply=apply,
                               read=values.get, defaults=lambda names: {n: 1 for n in names})
    registry.register(provider)
    yield values, calls
    registry.PROVIDERS.pop("probe.", None)


def test_the_lab_is_registered_at_start():
    """Every lab action is a registered setting, checked by the lab's own validation (its refusal is a SettingRefused)."""
    from kneeboard.lab.actions import list_actions

    assert {a["name"] for a in list_actions()} <= set(registry.names())
    assert registry.validate_setting("lab.gro", "on") is True
    with pytest.raises(ActionError) as refused:
        registry.validate_setting("lab.veth_queues", 0)
    assert isinstance(refused.value, SettingRefused) and refused.value.field == "lab.veth_queues"


def test_a_name_goes_to_its_prefix_and_an_unowned_one_is_refused(probe):
    """validate/apply/read/restore/defaults reach the owning provider; a prefix nobody owns names the known ones."""
    values, calls = probe
    assert registry.validate_setting("probe.knob", 2) == 2
    assert registry.apply_setting("probe.knob", 2) == 2 and values["probe.knob"] == 2
    assert registry.read_setting("probe.knob") == 2
    assert registry.restore_setting("probe.knob", 1) == 1  # no restore of its own: apply puts it back
    assert calls == [("apply", "probe.knob", 2), ("apply", "probe.knob", 1)]
    assert registry.defaults(["probe.knob", "lab.loss_permille", "lab.gro"]) == {"probe.knob": 1, "lab.loss_permille": 0}
    with pytest.raises(SettingRefused, match=r"probe\.knob: 3 is not within 1–2"):
        registry.validate_setting("probe.knob", 3)
    with pytest.raises(SettingRefused) as unknown:
        registry.validate_setting("nowhere.knob", 1)
    assert "lab.*" in unknown.value.message and "probe.*" in unknown.value.message


def test_a_provider_restore_of_its_own_is_used(probe):
    """A provider with its own restore (the observer's: the value found before, from its state file) is called for it."""
    restored: list = []
    registry.register(SettingProvider("probe.", names=lambda: ["probe.knob"], validate=lambda n, v: v,
                                      apply=lambda n, v: pytest.fail("apply is not the restore"), read=lambda n: None,
                                      restore=lambda n, v: restored.append((n, v)) or v))
    assert registry.restore_setting("probe.knob", 2) == 2 and restored == [("probe.knob", 2)]
