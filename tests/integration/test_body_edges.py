"""Bodies at the edge: every write route answers 413 to an oversize body in a way urllib reads (declared or
chunked), and the JSON guard sees a body whatever the case or parameters of its media type."""

from __future__ import annotations

import re
import socket
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from kneeboard.config import get_settings
from kneeboard.http_limits import DRAIN_BYTES, DRAIN_SECONDS, body_cap
from kneeboard.main import app

WRITES = sorted((method.upper(), path) for path, item in app.openapi()["paths"].items()
                for method in item if method in {"post", "put", "patch", "delete"})  # fmt: skip


def _send(stack, method: str, path: str, body, headers: dict) -> int:
    request = urllib.request.Request(stack.api_url + path, data=body, method=method, headers={**stack.auth, **headers} if "Authorization" not in headers else headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_there_are_write_routes_to_check():
    assert len(WRITES) > 30 and ("POST", "/api/v1/campaigns/import") in WRITES


@pytest.fixture(scope="module")
def agent_auth(stack) -> dict:
    """The agent link's routes answer agent credentials only."""
    created = stack.api.post("/api/v1/agent-credentials", json={"agent": "body-edges"})
    return {"Authorization": f"Bearer {created.json()['secret']}"}


def _route(path: str, agent_auth: dict) -> tuple[str, dict]:
    """A concrete path for a route template, and the JSON headers (with the agent credential on the agent link)."""
    concrete = re.sub(r"\{[^}]+\}", "1", re.sub(r"\{run\}", "0" * 32, path))
    return concrete, {"Content-Type": "application/json", **(agent_auth if concrete.startswith("/api/v1/agent/") else {})}


@pytest.mark.parametrize("method,path", WRITES)
def test_every_write_route_answers_413_to_an_oversize_body(stack, agent_auth, method, path):
    concrete, json_type = _route(path, agent_auth)
    cap = body_cap(concrete)
    oversize = b'{"x": "' + b"a" * cap + b'"}'
    assert _send(stack, method, concrete, oversize, json_type) == 413
    chunks = iter([oversize[i:i + 65536] for i in range(0, len(oversize), 65536)])  # no Content-Length: chunked
    assert _send(stack, method, concrete, chunks, {**json_type, "Transfer-Encoding": "chunked"}) == 413


@pytest.mark.parametrize("who", ["nobody", "admin on the agent link"])
def test_a_refused_caller_with_a_large_body_reads_its_refusal(stack, who):
    """Refused before the body is read (401, 403): the body is drained first, so urllib reads the answer, not a reset."""
    body = b'{"x": "' + b"a" * (get_settings().max_body_bytes // 2) + b'"}'
    path = "/api/v1/targets" if who == "nobody" else "/api/v1/agent/hello"
    headers = {"Content-Type": "application/json", "Authorization": "Bearer nothing" if who == "nobody" else stack.auth["Authorization"]}
    assert _send(stack, "POST", path, body, headers) == (401 if who == "nobody" else 403)


@pytest.mark.parametrize("media_type", ["application/json", "application/JSON", "Application/Json; charset=UTF-8",
                                        "application/vnd.kneeboard+json"])
def test_the_json_guard_matches_media_types_in_any_case(stack, dns_target, media_type):
    body = ('{"name": "bad\\u0007name", "kind": "dns", "host": "127.0.0.1", "port": 53}').encode()
    assert _send(stack, "POST", "/api/v1/targets", body, {"Content-Type": media_type}) == 422
    assert get_settings().max_body_bytes > len(body)


LARGE = {size: b'{"x": "' + b"a" * (size - 9) + b'"}' for size in (10_000_000, 30_000_000)}


@pytest.mark.parametrize("size", sorted(LARGE))
@pytest.mark.parametrize("method,path", WRITES)
def test_every_write_route_answers_a_large_body_with_a_413_urllib_reads(stack, agent_auth, method, path, size):
    """Bodies far over the cap but within the drain bound (32 MiB) are read and dropped, so urllib reads the 413
    (the import route takes 10 MB: its answer, 422 for a body that is no export, is read as well)."""
    assert size < DRAIN_BYTES
    concrete, json_type = _route(path, agent_auth)
    assert _send(stack, method, concrete, LARGE[size], json_type) == (413 if size > body_cap(concrete) else 422)


def _health_latencies(stack, stop: threading.Event) -> list[float]:
    """Time GET /api/v1/health over and over until `stop` is set (another client, while a huge body is refused)."""
    seconds = []
    while not stop.is_set():
        started = time.monotonic()
        with urllib.request.urlopen(stack.api_url + "/api/v1/health", timeout=30) as answer:
            assert answer.status == 200
        seconds.append(time.monotonic() - started)
        time.sleep(0.05)
    return seconds


def _push(stack, path: str, declared: int, chunk: int = 1 << 20) -> tuple[int, float]:
    """Send a JSON body of `declared` bytes as fast as the server takes it; (bytes sent before the server cut the
    connection off, seconds it took)."""
    where = urlsplit(stack.api_url)
    head = (f"POST {path} HTTP/1.1\r\nHost: {where.hostname}\r\nAuthorization: {stack.auth['Authorization']}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {declared}\r\n\r\n").encode()
    block, sent, started = b"a" * chunk, 0, time.monotonic()
    with socket.create_connection((where.hostname, where.port), timeout=DRAIN_SECONDS + 20) as sock:
        sock.sendall(head)
        try:
            while sent < declared:
                sock.sendall(block)
                sent += len(block)
        except (BrokenPipeError, ConnectionResetError):
            pass
    return sent, time.monotonic() - started


def test_a_100_mb_body_is_cut_off_within_the_drain_bound_without_stalling_others(stack):
    """Past DRAIN_BYTES the server stops reading and closes: the sender is cut off long before 100 MB, within
    the bound's time, while other clients are answered as usual."""
    stop, latencies = threading.Event(), []
    poller = threading.Thread(target=lambda: latencies.extend(_health_latencies(stack, stop)))
    poller.start()
    try:
        sent, seconds = _push(stack, "/api/v1/profiles", 100_000_000)
    finally:
        stop.set()
        poller.join()
    slack = 16 << 20  # what the kernel's socket buffers on both sides hold beyond what the server read
    assert sent < DRAIN_BYTES + get_settings().max_body_bytes + slack < 100_000_000
    assert seconds < DRAIN_SECONDS + 5
    assert latencies and max(latencies) < 1.0, latencies
