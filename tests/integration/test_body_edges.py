"""Bodies at the edge: every write route answers 413 to an oversize body in a way urllib reads (declared or
chunked), and the JSON guard sees a body whatever the case or parameters of its media type."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from kneeboard.config import get_settings
from kneeboard.http_limits import body_cap
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


@pytest.mark.parametrize("method,path", WRITES)
def test_every_write_route_answers_413_to_an_oversize_body(stack, agent_auth, method, path):
    concrete = re.sub(r"\{[^}]+\}", "1", re.sub(r"\{run\}", "0" * 32, path))
    cap = body_cap(concrete)
    oversize = b'{"x": "' + b"a" * cap + b'"}'
    json_type = {"Content-Type": "application/json", **(agent_auth if concrete.startswith("/api/v1/agent/") else {})}
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
