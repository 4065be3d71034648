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


# The lab this session holds: the lock taken at its first lab module and kept to the session's end, with the lab's
# throwaway work folder. Between modules the lab stays up (bringing it down and up again took ~5 s a module, some 40
# modules a run); each module starts from `lab up` again, which is idempotent and puts back what the module before
# changed (default configurations, an unimpaired link, every service running); a lab that differs still (its services
# or queue count, a folder of another lab) is brought down and up from nothing.
_HELD: dict = {}


@pytest.fixture(scope="session")
def lab_session():
    """The lock, held for the session, and the lab's work folder; the lab down at the session's end."""
    skip_without_lab()
    with open(LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        namespace.down()
        workdir = Path(tempfile.mkdtemp(prefix="kneeboard-lab-test-"))
        os.chmod(workdir, 0o755)  # nginx workers run as nobody
        _HELD["workdir"] = workdir
        try:
            yield workdir
        finally:
            _HELD.clear()
            namespace.down()
            shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def lab(lab_session):
    """The lab as `lab up` makes it, for one module: (workdir, status); skips where it cannot be.

    There is one lab per machine: test runs side by side on one box take turns (a lock file held while a run's lab
    is up), so one run's teardown does not pull the link from under another's test."""
    yield lab_session, lab_as_up_makes_it(lab_session)


def lab_as_up_makes_it(workdir: Path) -> namespace.LabStatus:
    """`lab up` in the session's folder; from nothing when what was left differs from a fresh lab's services and queues."""
    if namespace.lab_workdir() == workdir:
        status = namespace.up(workdir)
        if _fresh(status) == _HELD.get("fresh") and all(s["running"] for s in status.services):
            return status
    namespace.down()
    status = namespace.up(workdir)
    _HELD.setdefault("fresh", _fresh(status))
    return status


def _fresh(status: namespace.LabStatus) -> tuple:
    return status.queues, sorted((s["name"], s.get("config")) for s in status.services)


@contextmanager
def lab_held():
    """The lock taken, the lab brought up in a throwaway folder, (workdir, status) given, the lab down after (outside
    a test session: tests/support's captures)."""
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
def lab_turn():
    """The lab's lock for a test that brings up a lab of its own (or none): this session's own when it holds it (its
    lab is taken down first; the next module's `lab` puts it back), else taken here and released after."""
    if _HELD:
        namespace.down()
        yield
        return
    with open(LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@contextmanager
def lab_absent():
    """The lab down while the body runs: a lab test of the other lane waits instead of losing its lab. In a lane with a
    network namespace of its own (the background lane's) the lab's link is not here: it is absent already."""
    if not _HELD and not namespace.status(probe=False).present:
        yield
        return
    with lab_turn():
        namespace.down()
        yield


def lab_target(stack, name: str) -> int:
    """The lab's target `name` as `kneeboard lab up` registers it (notes, exporters), registered once per stack."""
    body = next(t for t in namespace.targets() if t["name"] == name)
    existing = [t for t in stack.api.get("/api/v1/targets").json() if t["name"] == name]
    return existing[0]["id"] if existing else stack.api.post("/api/v1/targets", json=body).json()["id"]
