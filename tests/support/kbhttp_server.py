"""`kbhttp serve` on loopback for the tests: started on a free port, stopped through its own Popen object."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator

import pytest

from kneeboard.tools import kbhttp


def binary() -> str:
    """The built kbhttp; skips the calling test when scripts/install-deps.sh has not built it."""
    found = kbhttp.binary()
    if found == "kbhttp":
        pytest.skip("kbhttp is not built (scripts/install-deps.sh builds simulator/bin/kbhttp)")
    return found


@contextlib.contextmanager
def serving(*flags: str, lifetime_s: float = 60) -> Iterator[int]:
    """`kbhttp serve --listen 127.0.0.1:0 FLAGS`, bounded to `lifetime_s`; yields its port once it listens."""
    argv = [binary(), "serve", "--listen", "127.0.0.1:0", "--duration", f"{lifetime_s:g}s", *flags]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        address = server.stdout.readline().strip()  # printed once it listens
        if not address:
            raise RuntimeError(f"kbhttp serve did not start: {server.stderr.read()}")
        yield int(address.rsplit(":", 1)[1])
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
