"""The live stream's event ids and retry hint, which let a browser reconnect with Last-Event-ID."""

from __future__ import annotations

from starlette.requests import Request

from kneeboard.streams.router import _first_event_id, _sse


def _request(headers: dict[str, str]) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]})


def test_each_event_carries_an_id():
    assert _sse("progress", {"status": "running"}, 7) == 'id: 7\nevent: progress\ndata: {"status": "running"}\n\n'


def test_ids_go_on_from_the_last_event_id_a_browser_sends():
    assert _first_event_id(_request({})) == 0
    assert _first_event_id(_request({"Last-Event-ID": "41"})) == 42
    assert _first_event_id(_request({"Last-Event-ID": "junk"})) == 0
