"""Live streams at volume: 200 streams on one campaign all get its samples and its end, over ONE Redis
subscription of the API process and one progress read a second; streams are capped per user and in total
(429), and a closed stream frees its slot."""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import redis

from kneeboard.stack import start_api
from tests.integration.test_crash_safety import _launch, _plan

STREAMS = 200


def _pubsub_clients(redis_url: str) -> int:
    return sum(1 for c in redis.Redis.from_url(redis_url).client_list() if int(c.get("psub", 0)) or int(c.get("sub", 0)))


async def _watch(url: str, headers: dict, kinds: list[str], opened: asyncio.Event, count: list[int]) -> None:
    async with httpx.AsyncClient(timeout=120, headers=headers) as client:
        async with client.stream("GET", url) as answer:
            assert answer.status_code == 200
            count[0] += 1
            if count[0] == STREAMS:
                opened.set()
            async for line in answer.aiter_lines():
                if line.startswith("event: "):
                    kinds.append(line[7:])
                    if line == "event: end":
                        return


def test_many_streams_share_one_subscription_and_all_get_the_samples(stack, dns_target):
    api, url = start_api({**stack.env, "SSE_MAX_PER_USER": "500", "SSE_MAX_TOTAL": "500"}, stack.tmp, log="api-streams.log")
    stack.started.append(api)
    campaign_id = _launch(stack, _plan(stack, dns_target["id"], points=1, duration_s=20))
    before = _pubsub_clients(stack.env["REDIS_URL"])
    streams: list[list[str]] = [[] for _ in range(STREAMS)]

    async def main() -> tuple[int, float]:
        opened, count = asyncio.Event(), [0]
        tasks = [asyncio.create_task(_watch(f"{url}/api/v1/campaigns/{campaign_id}/events", stack.auth, kinds, opened, count))
                 for kinds in streams]  # fmt: skip
        await asyncio.wait_for(opened.wait(), 60)
        all_open = time.monotonic() - started
        during = _pubsub_clients(stack.env["REDIS_URL"])
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        return during, all_open

    started = time.monotonic()
    during, all_open = asyncio.run(main())
    samples = [kinds.count("sample") for kinds in streams]
    print(f"\n{STREAMS} streams: pub/sub connections {before} before, {during} with them open; all open after {all_open:.1f} s; "
          f"samples per stream min {min(samples)}, max {max(samples)}; all ended after {time.monotonic() - started:.1f} s")
    assert during <= before + 1, "each stream must not hold its own Redis subscription"
    assert all(kinds[-1] == "end" for kinds in streams)
    assert all_open < 15 and min(samples) >= 4, samples[:10]  # the 20 s point's samples after every stream was open (a busy machine opens 200 slowly)


def test_streams_are_capped_per_user_and_a_closed_one_frees_its_slot(stack, dns_target):
    username, password = f"sse-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    assert stack.api.post("/api/v1/users", json={"username": username, "password": password, "role": "viewer"}).status_code == 201
    with httpx.Client(base_url=stack.api_url, timeout=30, headers={"Origin": stack.api_url}) as browser:
        assert browser.post("/api/v1/auth/login", json={"username": username, "password": password}).status_code == 200
        token = browser.post("/api/v1/tokens", json={"name": "sse"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    campaign_id = _launch(stack, _plan(stack, dns_target["id"], points=1, duration_s=20))
    path = f"{stack.api_url}/api/v1/campaigns/{campaign_id}/events"
    from kneeboard.config import get_settings

    cap = get_settings().sse_max_per_user
    clients = [httpx.Client(timeout=30, headers=headers) for _ in range(cap + 1)]
    opened = []
    try:
        for client in clients[:cap]:
            answer = client.send(client.build_request("GET", path), stream=True)
            assert answer.status_code == 200
            opened.append(answer)
        refused = clients[cap].get(path)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert "SSE_MAX_PER_USER" in json.loads(refused.text)["detail"]
        opened.pop().close()
        deadline = time.monotonic() + 10
        while (again := clients[cap].send(clients[cap].build_request("GET", path), stream=True)).status_code == 429:
            assert time.monotonic() < deadline, "a closed stream did not give its slot back"
            again.close()
            time.sleep(0.2)
        assert again.status_code == 200
        again.close()
    finally:
        for answer in opened:
            answer.close()
        for client in clients:
            client.close()
        stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel")
