"""The refusal's drain stops at its documented bound: DRAIN_BYTES or DRAIN_SECONDS, whichever comes first."""

from __future__ import annotations

import time

import anyio
from starlette.datastructures import Headers

from kneeboard import http_limits


def _endless(chunk: int, pause: float):
    """A client that never stops sending (the ASGI receive of a body with no end), counting what was read."""
    read = []

    async def receive() -> dict:
        await anyio.sleep(pause)
        read.append(chunk)
        return {"type": "http.request", "body": b"a" * chunk, "more_body": True}

    return receive, read


def test_a_fast_endless_body_is_dropped_up_to_the_byte_bound(monkeypatch):
    monkeypatch.setattr(http_limits, "DRAIN_BYTES", 1 << 20)
    receive, read = _endless(65_536, 0)
    anyio.run(http_limits.drain, receive, Headers({}))
    assert sum(read) == 1 << 20


def test_a_slow_endless_body_is_dropped_up_to_the_time_bound(monkeypatch):
    monkeypatch.setattr(http_limits, "DRAIN_SECONDS", 0.3)
    receive, read = _endless(10, 0.01)
    started = time.monotonic()
    anyio.run(http_limits.drain, receive, Headers({}))
    assert 0.3 <= time.monotonic() - started < 1.0 and read


def test_a_client_waiting_for_100_continue_is_not_read():
    receive, read = _endless(10, 0)
    anyio.run(http_limits.drain, receive, Headers({"expect": "100-continue"}))
    assert read == []
