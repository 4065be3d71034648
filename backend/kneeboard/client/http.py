"""A small httpx client for the Kneeboard API: token and URL from flags or KB_TOKEN / KB_URL; errors as ApiError."""

from __future__ import annotations

import os
from typing import Any

import httpx

DEFAULT_URL = "http://127.0.0.1:8000"


class ApiError(Exception):
    """An HTTP error answer (status and detail), or the server out of reach (status 0)."""

    def __init__(self, status: int, detail: Any) -> None:
        super().__init__(describe(status, detail))
        self.status = status
        self.detail = detail


def describe(status: int, detail: Any) -> str:
    """A readable message; a 422 lists each field (loc without body/query) with its message."""
    if isinstance(detail, list):
        lines = []
        for error in detail:
            loc = [str(part) for part in error.get("loc", []) if part not in ("body", "query")]
            lines.append(f"{'.'.join(loc) or '(plan)'}: {error.get('msg', error)}")
        return "\n".join(lines)
    return f"HTTP {status}: {detail}" if status else str(detail)


class Client:
    """The API at `url` with a bearer `token`; every method returns parsed JSON or raises ApiError."""

    def __init__(self, url: str | None, token: str | None, timeout_s: float = 30.0) -> None:
        self.url = (url or os.environ.get("KB_URL") or DEFAULT_URL).rstrip("/")
        token = token or os.environ.get("KB_TOKEN")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=self.url, headers=headers, timeout=timeout_s)

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """Send a request under /api/v1; the response, or ApiError on an HTTP error or no connection."""
        try:
            response = self.http.request(method, f"/api/v1{path}", **kwargs)
        except httpx.HTTPError as exc:
            raise ApiError(0, f"cannot reach {self.url}: {exc}") from None
        if response.status_code >= 400:
            try:
                detail = response.json().get("detail", response.text)
            except ValueError:
                detail = response.text
            raise ApiError(response.status_code, detail)
        return response

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """Send a request under /api/v1; JSON (or text) back, ApiError on an HTTP error or no connection."""
        response = self.send(method, path, **kwargs)
        if response.status_code == 204:
            return None
        if "json" in response.headers.get("content-type", ""):
            return response.json()
        return response.text

    def get(self, path: str, **params: Any) -> Any:
        """GET with query parameters (None values left out)."""
        return self.request("GET", path, params={k: v for k, v in params.items() if v is not None})

    def post(self, path: str, **kwargs: Any) -> Any:
        """POST (json=…, content=…, files=…)."""
        return self.request("POST", path, **kwargs)

    def report_url(self, campaign_id: int) -> str:
        """The campaign's report page in the UI."""
        return f"{self.url}/campaigns/{campaign_id}"
