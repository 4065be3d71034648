"""The remote agent's side of the agent link: every call it makes to the API, over HTTP(S) with one credential.
It is given the API's URL and nothing else of the server: no broker, no database."""

from __future__ import annotations

import ipaddress
import time
from urllib.parse import urlsplit

import httpx

OUTCOME_TRIES_S = 30.0  # an outcome is sent again on network errors for this long: the measurement is not thrown away


class LinkRefused(Exception):
    """The API said no (the message is its reason); `status` is the HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def url_refusal(url: str, insecure_http: bool) -> str | None:
    """Why `url` must not be used (plain http to an address off this machine, unless asked for), or None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{url!r} is not an http(s) URL of the API"
    if parts.scheme == "https" or insecure_http:
        return None
    try:
        loopback = parts.hostname == "localhost" or ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    return (f"{url} is plain http to another machine: the credential would cross the network in clear; use https:// "
            "(with --ca-bundle for a private CA), or --insecure-http if this network is yours alone")


class ApiLink:
    """The agent's calls to the API, authenticated by its agent credential."""

    def __init__(self, url: str, credential: str, ca_bundle: str | None = None) -> None:
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {credential}"}, timeout=10,
                                 verify=ca_bundle or True, follow_redirects=False, trust_env=False)  # fmt: skip

    def _call(self, method: str, path: str, **kwargs) -> httpx.Response:
        reply = self.http.request(method, path, **kwargs)
        if reply.status_code >= 400:
            try:
                detail = reply.json().get("detail")
            except ValueError:
                detail = reply.text[:300]
            raise LinkRefused(reply.status_code, f"{method} {path}: {reply.status_code} {detail}")
        return reply

    def hello(self, name: str, instance: str, facts: dict) -> dict:
        """Register this process as `name` with its facts; LinkRefused 409 while another live process holds the name."""
        return self._call("POST", "/api/v1/agent/hello", json={"agent": name, "instance": instance, "facts": facts}).json()

    def beat(self, body: dict) -> float:
        """One heartbeat; the server's clock."""
        return self._call("POST", "/api/v1/agent/heartbeat", json=body).json()["server_time"]

    def take(self, instance: str, wait_s: float) -> dict | None:
        """The next share for this agent, waiting up to `wait_s`; None when there is none."""
        reply = self._call("GET", "/api/v1/agent/work", params={"instance": instance, "wait_s": wait_s}, timeout=wait_s + 10)
        return None if reply.status_code == 204 else reply.json()

    def alive(self, run: str) -> str | None:
        """The share's sign of life; why to stop now, or None."""
        return self._call("POST", f"/api/v1/agent/shares/{run}/alive", timeout=2).json()["stop"]

    def samples(self, run: str, samples: list[dict]) -> None:
        """Live intervals of the share."""
        self._call("POST", f"/api/v1/agent/shares/{run}/samples", json={"samples": samples}, timeout=2)

    def outcome(self, run: str, outcome: dict) -> None:
        """The share's outcome, sent again on network errors for up to OUTCOME_TRIES_S (never on a refusal)."""
        deadline = time.monotonic() + OUTCOME_TRIES_S
        while True:
            try:
                self._call("POST", f"/api/v1/agent/shares/{run}/outcome", json=outcome, timeout=30)
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)

    def policy(self) -> dict:
        """The target policy in force."""
        return self._call("GET", "/api/v1/policy/targets").json()
