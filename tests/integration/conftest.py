"""The lab fixture shared by the lab's own tests and the lab campaigns."""

from __future__ import annotations

import os
import shutil

import pytest

from kneeboard.lab import namespace
from tests.support.labs import lab_as_up_makes_it, lab_for_session


def skip_without_lab() -> None:
    """Skip the calling module when this machine cannot hold the lab (needs root, iproute2, the servers)."""
    if os.geteuid() != 0:
        pytest.skip("the lab needs root (network namespaces and veth links)", allow_module_level=True)
    for tool in ("ip", "ethtool", "unbound", "nginx", "iperf3"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            pytest.skip(f"{tool} is not installed", allow_module_level=True)


@pytest.fixture(scope="session")
def lab_session():
    """The lock, held for the session, and the lab's work folder; the lab down at the session's end (tests/support/labs.py)."""
    skip_without_lab()
    with lab_for_session() as workdir:
        yield workdir


@pytest.fixture(scope="module")
def lab(lab_session):
    """The lab as `lab up` makes it, for one module: (workdir, status); skips where it cannot be.

    There is one lab per machine: test runs side by side on one box take turns (a lock file held while a run's lab
    is up), so one run's teardown does not pull the link from under another's test."""
    yield lab_session, lab_as_up_makes_it(lab_session)


def lab_target(stack, name: str) -> int:
    """The lab's target `name` as `kneeboard lab up` registers it (notes, exporters), registered once per stack."""
    body = next(t for t in namespace.targets() if t["name"] == name)
    existing = [t for t in stack.api.get("/api/v1/targets").json() if t["name"] == name]
    return existing[0]["id"] if existing else stack.api.post("/api/v1/targets", json=body).json()["id"]
