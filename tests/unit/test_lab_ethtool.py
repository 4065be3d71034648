"""ethtool parsers on the captured ethtool 6.1 output (veth: RX/TX channels, Combined n/a)."""

from __future__ import annotations

import pathlib

from kneeboard.lab import ethtool

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "tool-output"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


def test_channels_q4():
    parsed = ethtool.parse_channels(fixture("ethtool-6.1-l-q4.txt"))
    assert parsed["max"] == {"rx": 4, "tx": 4, "other": None, "combined": None}
    assert parsed["current"] == {"rx": 4, "tx": 4, "other": None, "combined": None}


def test_channels_q1_current_differs_from_max():
    parsed = ethtool.parse_channels(fixture("ethtool-6.1-l-q1.txt"))
    assert parsed["max"]["rx"] == 4
    assert parsed["current"]["rx"] == 1 and parsed["current"]["tx"] == 1
    assert parsed["current"]["combined"] is None


def test_channels_garbage_is_empty():
    assert ethtool.parse_channels("netlink error: Operation not supported\n") == {}


def test_features_veth():
    parsed = ethtool.parse_features(fixture("ethtool-6.1-k-veth.txt"))
    assert ethtool.feature_on(parsed, "gro") is True
    assert ethtool.feature_on(parsed, "generic-receive-offload") is True
    assert ethtool.feature_on(parsed, "rx-udp-gro-forwarding") is True
    assert ethtool.feature_on(parsed, "rx-gro-list") is False
    assert parsed["large-receive-offload"] == {"on": False, "fixed": True}
    assert parsed["tx-checksum-ip-generic"] == {"on": True, "fixed": False}  # tab-indented sub-feature
    assert ethtool.feature_on(parsed, "no-such-feature") is None
    assert "Features for capvB" not in parsed
