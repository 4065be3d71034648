"""The host settings a server's observer may change (observers/nic.py): typed values only, refused outside its
actions file's [nic] and on the interface carrying its own link; ethtool -g parsed from a recorded virtio NIC."""

from __future__ import annotations

from pathlib import Path

import pytest

from kneeboard.lab.ethtool import parse_rings
from kneeboard.observers.nic import HostNic, HostSettingRefused, NicAccess, typed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tool-output"


def test_rings_of_a_recorded_virtio_nic():
    rings = parse_rings((FIXTURES / "ethtool-6.1-g-virtio.txt").read_text())
    assert rings["max"] == {"rx": 256, "rx mini": None, "rx jumbo": None, "tx": 256}
    assert rings["current"]["rx"] == 256 and rings["current"]["tx"] == 256


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("host.channels", 2, 2), ("host.channels", "4", 4), ("host.rps", "0x3", "3"), ("host.rps", "ff,00000000", "ff,00000000"),
    ("host.gro", False, False), ("host.gro", "on", True),
])
def test_typed_values(name, value, expected):
    assert typed(name, value) == expected


@pytest.mark.parametrize(("name", "value"), [
    ("host.channels", 0), ("host.channels", True), ("host.channels", "2; reboot"), ("host.channels", 1025),
    ("host.rps", "3 > /etc/passwd"), ("host.gro", "yes"), ("host.irq", 1), ("host.channels", "ethtool -L eth0 combined 1"),
])
def test_anything_else_is_refused(name, value):
    with pytest.raises(HostSettingRefused):
        typed(name, value)


def test_refusals_name_the_reason(tmp_path):
    state = tmp_path / "state.json"
    assert "no [nic] table" in HostNic(None, state).refusal("host.channels", 1)
    own = HostNic(NicAccess(interface="eth9", channels_max=2), state, link_dev="eth9")
    assert "carries this observer's own link" in own.refusal("host.channels", 1)
    nic = HostNic(NicAccess(interface="kbnone0", channels_min=1, channels_max=2), state, link_dev="lo")
    assert nic.refusal("host.channels", 2) is None  # no such device here: the file's bounds alone
    assert "outside what this host allows on kbnone0 (1-2)" in nic.refusal("host.channels", 3)
    assert "host.rps is not allowed" in nic.refusal("host.rps", "1")
    assert "host.gro is not allowed" in nic.refusal("host.gro", True)
    assert not state.exists()  # a refusal changes nothing, not even the state file
