"""A point's events told on the campaign's live channel (events/schedule.py): each as it fires and again when it is done
or failed, on a real Redis; and a Redis that hangs delays no event (the telling has a thread of its own)."""

from __future__ import annotations

import json
import socket
import time

import pytest
import redis

from kneeboard import live
from kneeboard.config import get_settings
from kneeboard.events import actions, schedule
from kneeboard.events.actions import EventAction, EventFailed
from kneeboard.stack import start_redis


def _failing(value: str, about: dict | None = None) -> dict:
    raise EventFailed(f"{value} is already running")


@pytest.fixture
def registered(monkeypatch):
    """Two harmless actions beside the lab's (the lab's own act on its processes): one acts, one fails."""
    monkeypatch.setitem(actions.ACTIONS, "test.mark", EventAction("test.mark", "does nothing", ("b1",), lambda _v, _about=None: {}))
    monkeypatch.setitem(actions.ACTIONS, "test.fail", EventAction("test.fail", "always fails", ("b1",), _failing))
    monkeypatch.setattr(schedule, "ACTIONS", actions.ACTIONS)


def _use_redis(monkeypatch, url: str) -> None:
    monkeypatch.setenv("REDIS_URL", url)
    get_settings.cache_clear()
    live._client.cache_clear()


@pytest.fixture(autouse=True)
def _forget_redis():
    yield
    get_settings.cache_clear()
    live._client.cache_clear()


EVENTS = [{"at_s": 0.2, "action": "test.mark", "value": "b1"}, {"at_s": 0.4, "action": "test.fail", "value": "b1"}]


def test_each_event_is_told_as_it_fires_and_when_it_is_done_or_failed(tmp_path, monkeypatch, registered):
    proc, url = start_redis(tmp_path)
    try:
        _use_redis(monkeypatch, url)
        pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(live.channel(7))
        with schedule.during(EVENTS, False, campaign_id=7, point_id=70) as fired:
            time.sleep(0.6)
        told, quiet_until = [], time.monotonic() + 1
        while time.monotonic() < quiet_until:  # None is also an ignored subscribe message: read until 1 s without one
            if (message := pubsub.get_message(timeout=0.1)) is not None:
                told.append(json.loads(message["data"]))
                quiet_until = time.monotonic() + 1
    finally:
        proc.terminate()
        proc.wait()
    assert {m["event"] for m in told} == {"point_event"}
    data = [m["data"] for m in told]
    assert [(d["action"], "done" in d, d.get("error")) for d in data] == [
        ("test.mark", False, None), ("test.mark", True, None), ("test.fail", False, None), ("test.fail", True, "b1 is already running")]
    assert all(d["point_id"] == 70 for d in data)
    assert [{k: v for k, v in d.items() if k != "point_id"} for d in data[1::2]] == fired.records  # what the point stores


def test_a_hung_redis_delays_no_event(monkeypatch, registered):
    hung = socket.socket()  # accepts connections (the kernel's backlog) and never answers
    hung.bind(("127.0.0.1", 0))
    hung.listen(8)
    try:
        _use_redis(monkeypatch, f"redis://127.0.0.1:{hung.getsockname()[1]}/0")
        events = [{**EVENTS[0], "at_s": at_s} for at_s in (0.1, 0.2, 0.3)]
        start = time.time()
        with schedule.during(events, False, campaign_id=7, point_id=70) as fired:
            time.sleep(0.5)
        ended = time.time() - start
    finally:
        hung.close()
    late = [round(r["t"] - (start + r["at_s"]), 3) for r in fired.records]
    print(f"\nfigures: with Redis hung, events fired {late} s late; the point's end waited {ended - 0.5:.2f} s for the telling")
    assert len(late) == 3 and all(s < 0.1 for s in late), late
    assert ended < 0.5 + schedule.TOLD_WAIT_S + 0.5  # the end waits a bounded time for what is still being told
