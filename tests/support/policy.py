"""The target policy in integration tests: an address let through for a while, the policy put back after."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import httpx


@contextmanager
def let_through(api: httpx.Client, address: str) -> Iterator[str]:
    """Within: `address`/32 is among the target policy's networks (the admin's `api` changes it); put back after."""
    before = api.get("/api/v1/policy/targets").json()
    body = {k: before[k] for k in ("networks", "hosts", "role_caps")}
    put = api.put("/api/v1/policy/targets", json={**body, "networks": [*body["networks"], f"{address}/32"]})
    assert put.status_code == 200, put.text
    try:
        yield address
    finally:
        api.put("/api/v1/policy/targets", json=body)
