"""One query_range (or range-vector query) call to a Prometheus, bounded every way: connected to the address the allow-list check saw (the URL's
name kept for the Host header and TLS), no redirect followed, no proxy, the answer capped before it is parsed and
the whole call under a deadline. Every failure is a PromQLError saying what happened (never the credential)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from kneeboard.outbound.allowlist import pinned_target

MAX_ANSWER_BYTES = 8 * 1_048_576  # 200 series × 10,000 steps of ~30 bytes each fit
TIMEOUT_S = 10.0


class PromQLError(RuntimeError):
    """A query that gave no matrix: refused, down, slow, redirected, oversized, or an error Prometheus named.
    `server_wide`: the server itself failed (down, slow, redirected, refused us), so its other queries are not tried."""

    def __init__(self, message: str, *, server_wide: bool = True) -> None:
        super().__init__(message)
        self.server_wide = server_wide


def query_range(base_url: str, address: str, headers: dict[str, str], promql: str, start: float, end: float, step_s: float,
                *, timeout_s: float = TIMEOUT_S, max_bytes: int = MAX_ANSWER_BYTES) -> Any:
    """The answer's `data.result` (a matrix) for `promql` over [start, end] every step_s seconds."""
    params = {"query": promql, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": f"{step_s:g}", "timeout": f"{timeout_s:g}s"}
    return _get(base_url, address, headers, "query_range", params, timeout_s, max_bytes)


def query_at(base_url: str, address: str, headers: dict[str, str], promql: str, at: float,
             *, timeout_s: float = TIMEOUT_S, max_bytes: int = MAX_ANSWER_BYTES) -> Any:
    """The answer's `data.result` for a range-vector `promql` evaluated at `at`: a matrix of the raw samples."""
    params = {"query": promql, "time": f"{at:.3f}", "timeout": f"{timeout_s:g}s"}
    return _get(base_url, address, headers, "query", params, timeout_s, max_bytes)


def _get(base_url: str, address: str, headers: dict[str, str], path: str, params: dict[str, str], timeout_s: float,
         max_bytes: int) -> Any:
    """One GET of /api/v1/<path>, pinned and bounded (see the module's docstring); the answer's matrix."""
    url, host, extensions = pinned_target(f"{base_url}/api/v1/{path}", address)
    began = time.monotonic()
    try:
        with httpx.Client(follow_redirects=False, timeout=timeout_s, trust_env=False) as client:
            with client.stream("GET", url, params=params, headers={**host, **headers, "Accept": "application/json"},
                               extensions=extensions) as answer:
                if answer.is_redirect:
                    raise PromQLError(f"answered HTTP {answer.status_code} (a redirect: not followed, the allow-list checked this URL only)")
                declared = answer.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > max_bytes:
                    raise PromQLError(f"the answer is larger than {max_bytes} bytes ({declared} announced)", server_wide=False)
                body = bytearray()
                for chunk in answer.iter_bytes():  # decoded: the cap holds for what is parsed
                    body += chunk
                    if len(body) > max_bytes:
                        raise PromQLError(f"the answer is larger than {max_bytes} bytes", server_wide=False)
                    if time.monotonic() - began > timeout_s:
                        raise PromQLError(f"timed out: no whole answer within {timeout_s:g} s")
                status = answer.status_code
    except httpx.HTTPError as exc:
        kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "unreachable"
        raise PromQLError(f"{kind}: {type(exc).__name__}: {str(exc)[:200]}") from None
    return _matrix(status, bytes(body))


def _matrix(status: int, body: bytes) -> Any:
    """The result of a Prometheus API answer; PromQLError with Prometheus's own errorType and error otherwise."""
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    if isinstance(answer, dict) and answer.get("status") == "error":
        raise PromQLError(f"query error ({answer.get('errorType')}): {str(answer.get('error'))[:300]}",
                          server_wide=answer.get("errorType") not in ("bad_data", "execution"))
    if status != 200:
        raise PromQLError(f"answered HTTP {status}")
    data = answer.get("data") if isinstance(answer, dict) else None
    if not isinstance(data, dict) or data.get("resultType") != "matrix":
        raise PromQLError("not a Prometheus range answer (no matrix)")
    return data.get("result")
