"""The machine's one lab, as a test session holds it: the lock test runs on one box take turns by, the lab kept up
between modules, and the helpers for a test that needs it down or brings up its own (tests/integration/conftest.py's
`lab` fixture uses them). A module of its own so that every test module shares one record of what the session holds:
a conftest imported by name is a second copy of itself."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from kneeboard.lab import namespace

LOCK_FILE = Path(tempfile.gettempdir()) / "kneeboard-lab-test.lock"


# The lab this session holds: the lock taken at its first lab module and kept to the session's end, with the lab's
# throwaway work folder. Between modules the lab stays up (bringing it down and up again took ~5 s a module, some 40
# modules a run); each module starts from `lab up` again, which is idempotent and puts back what the module before
# changed (default configurations, an unimpaired link, every service running); a lab that differs still (its services
# or queue count, a folder of another lab) is brought down and up from nothing.
_HELD: dict = {}


@contextmanager
def lab_for_session():
    """The lock taken and held, the lab's throwaway work folder given; the lab down and the lock released after."""
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
    with lab_for_session() as workdir:
        yield workdir, namespace.up(workdir)


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


