"""Fixtures shared by the tool adapters' unit tests."""

from __future__ import annotations

import pytest

from kneeboard.tools.base import PointSpec


@pytest.fixture
def read(fixtures_dir):
    """Text of one captured tool output, by file name."""
    return lambda name: (fixtures_dir / name).read_text()


def point_spec(defaults: dict, changes: dict) -> PointSpec:
    """A PointSpec from a test's defaults with some fields changed."""
    return PointSpec(**{**defaults, **changes})
