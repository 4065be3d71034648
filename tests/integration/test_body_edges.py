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
    request = urllib.request.Request(stack.api_url + path, data=body, method=method, headers={**stack.auth, **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_there_are_write_routes_to_check():
    assert len(WRITES) > 30 and ("POST", "/api/v1/campaigns/import") in WRITES


@pytest.mark.parametrize("method,path", WRITES)
def test_every_write_route_answers_413_to_an_oversize_body(stack, method, path):
    concrete = re.sub(r"\{[^}]+\}", "1", path)
    cap = body_cap(concrete)
    oversize = b'{"x": "' + b"a" * cap + b'"}'
    assert _send(stack, method, concrete, oversize, {"Content-Type": "application/json"}) == 413
    chunks = iter([oversize[i:i + 65536] for i in range(0, len(oversize), 65536)])  # no Content-Length: chunked
    assert _send(stack, method, concrete, chunks, {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}) == 413


@pytest.mark.parametrize("media_type", ["application/json", "application/JSON", "Application/Json; charset=UTF-8",
                                        "application/vnd.kneeboard+json"])
def test_the_json_guard_matches_media_types_in_any_case(stack, dns_target, media_type):
    body = ('{"name": "bad\\u0007name", "kind": "dns", "host": "127.0.0.1", "port": 53}').encode()
    assert _send(stack, "POST", "/api/v1/targets", body, {"Content-Type": media_type}) == 422
    assert get_settings().max_body_bytes > len(body)
