"""The lab fixture shared by the lab's own tests and the lab campaigns."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from kneeboard.lab import namespace

LOCK_FILE = Path(tempfile.gettempdir()) / "kneeboard-lab-test.lock"


def skip_without_lab() -> None:
    """Skip the calling module when this machine cannot hold the lab (needs root, iproute2, the servers)."""
    if os.geteuid() != 0:
        pytest.skip("the lab needs root (network namespaces and veth links)", allow_module_level=True)
    for tool in ("ip", "ethtool", "unbound", "nginx", "iperf3"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            pytest.skip(f"{tool} is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def lab():
    """The lab, up for one module and down after it (this replaces a lab `make up` started); skips where it cannot be.

    There is one lab per machine: test runs side by side on one box take turns (a lock file held
    while the lab is up), so one run's teardown does not pull the link from under another's test.
    """
    skip_without_lab()
    with lab_held() as held:
        yield held


@contextmanager
def lab_held():
    """The lock taken, the lab brought up in a throwaway folder, (workdir, status) given, the lab down after."""
    with open(LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        namespace.down()
        workdir = Path(tempfile.mkdtemp(prefix="kneeboard-lab-test-"))
        os.chmod(workdir, 0o755)  # nginx workers run as nobody
        try:
            yield workdir, namespace.up(workdir)
        finally:
            namespace.down()
            shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def lab_absent():
    """The lock taken and the lab down while the body runs: a lab test of the other lane waits instead of losing its lab."""
    with open(LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        namespace.down()
        yield


def lab_target(stack, name: str) -> int:
    """The lab's target `name` as `kneeboard lab up` registers it (notes, exporters), registered once per stack."""
    body = next(t for t in namespace.targets() if t["name"] == name)
    existing = [t for t in stack.api.get("/api/v1/targets").json() if t["name"] == name]
    return existing[0]["id"] if existing else stack.api.post("/api/v1/targets", json=body).json()["id"]
