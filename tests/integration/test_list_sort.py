"""The campaign list's order (?sort=): newest or oldest first by cursor or offset, by name by offset."""

from __future__ import annotations

import secrets
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"


def test_list_sorts_and_pages(stack, dns_target):
    mark = f"sort-{secrets.token_hex(3)}"  # in every name: ?q= narrows the list to these three
    seed = (DATA / "seed000.csv").read_bytes()
    ids = {}
    for name in ("bravo", "alpha", "Charlie"):
        imported = stack.api.post("/api/v1/campaigns/import", files=[("file", ("bench.csv", seed))], data={"name": f"{mark} {name}", "target_id": str(dns_target["id"])})
        assert imported.status_code == 201, imported.text
        ids[name] = imported.json()["id"]

    def listed(**params) -> dict:
        response = stack.api.get("/api/v1/campaigns", params={"q": mark, **params})
        assert response.status_code == 200, response.text
        return response.json()

    newest = [ids["Charlie"], ids["alpha"], ids["bravo"]]
    assert [c["id"] for c in listed()["items"]] == newest
    assert [c["id"] for c in listed(sort="oldest")["items"]] == newest[::-1]
    assert [c["name"] for c in listed(sort="name")["items"]] == [f"{mark} {n}" for n in ("alpha", "bravo", "Charlie")]

    # the keyset cursor walks oldest first too; a list by name pages by offset and gives no cursor
    first = listed(sort="oldest", limit=2)
    assert [c["id"] for c in first["items"]] == newest[::-1][:2] and first["next_cursor"]
    assert [c["id"] for c in listed(sort="oldest", limit=2, cursor=first["next_cursor"])["items"]] == [ids["Charlie"]]
    by_name = listed(sort="name", limit=2)
    assert by_name["next_cursor"] is None and [c["name"] for c in listed(sort="name", limit=2, offset=2)["items"]] == [f"{mark} Charlie"]

    refused = stack.api.get("/api/v1/campaigns", params={"sort": "name", "cursor": first["next_cursor"]})
    assert refused.status_code == 422 and "cursor" in str(refused.json()["detail"])
    unknown = stack.api.get("/api/v1/campaigns", params={"sort": "size"})
    assert unknown.status_code == 422 and unknown.json()["detail"][0]["loc"][-1] == "sort"
