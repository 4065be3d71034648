"""`kneeboard agent --name NAME --url API_URL --token TOKEN`: a load generator that holds no database
credentials. It registers through the API with its facts, measures its clock offset to the server
(NTP-style, best of several round trips), sends heartbeats, and consumes its own Celery queue
(solo pool: one share at a time) on the broker the API named."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
from collections import deque

import httpx
import redis
from celery import Celery

from kneeboard.fanout import share
from kneeboard.tools.registry import probe_versions

log = logging.getLogger(__name__)
ROUND_TRIPS = 5  # at registration; then one more per heartbeat, the best of the last WINDOW kept
WINDOW = 16


def addresses(api_host: str | None = None) -> list[str]:
    """This host's addresses as it sees them (IPv4 and IPv6, loopback left out), with the one routes leave by
    towards the API (in a lab namespace: the agent's own address on the bridge)."""
    found = set()
    for family, *_rest, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
        found.add(sockaddr[0])
    for towards in filter(None, ("192.0.2.1", api_host)):
        try:
            with socket.socket(socket.AF_INET6 if ":" in towards else socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((towards, 9))  # nothing is sent
                found.add(probe.getsockname()[0])
        except OSError:
            pass
    return sorted(a for a in found if not a.startswith(("127.", "::1")))


class Clock:
    """The server-minus-agent offset from heartbeat round trips: the one with the shortest round trip wins."""

    def __init__(self) -> None:
        self.samples: deque[tuple[float, float]] = deque(maxlen=WINDOW)  # (rtt, offset)

    def add(self, sent: float, server: float, received: float) -> None:
        """One round trip: local send and receive times around the server's reading."""
        self.samples.append((received - sent, server - (sent + received) / 2))

    def best(self) -> tuple[float, float]:
        """(offset_s, rtt_s) of the shortest round trip kept."""
        rtt, offset = min(self.samples)
        return offset, rtt


def beat(api: httpx.Client, name: str, clock: Clock) -> None:
    """One heartbeat: reports the current offset, and measures it once more from the reply."""
    body = dict(zip(("clock_offset_s", "rtt_s"), clock.best())) if clock.samples else {}
    sent = time.time()
    reply = api.post(f"/api/v1/agents/{name}/heartbeat", json=body).raise_for_status().json()
    clock.add(sent, reply["server_time"], time.time())


def register(api: httpx.Client, name: str) -> dict:
    """Register with this host's facts; the reply names the broker and the heartbeat period."""
    facts = {"hostname": socket.gethostname(), "cpus": os.cpu_count() or 1, "addresses": addresses(api.base_url.host),
             "tools": probe_versions()}
    return api.post("/api/v1/agents/register", json={"name": name, "facts": facts}).raise_for_status().json()


def _heartbeats(api: httpx.Client, name: str, clock: Clock, period_s: float, ctx: share.AgentContext) -> None:
    while True:
        time.sleep(period_s)
        try:
            beat(api, name, clock)
            ctx.offset_s = clock.best()[0]
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code == 404:  # the server forgot us (a new database): register again
                register(api, name)
            log.warning("heartbeat refused: %s", exc)
        except httpx.HTTPError as exc:
            log.warning("heartbeat failed: %s", exc)


def celery_app(broker_url: str) -> Celery:
    """A Celery app on the broker with only `kneeboard.run_share`: no campaign tasks, no database."""
    app = Celery("kneeboard-agent", broker=broker_url)
    app.conf.update(task_ignore_result=True, task_acks_late=False, worker_prefetch_multiplier=1, worker_concurrency=1,
                    broker_connection_retry_on_startup=True, worker_hijack_root_logger=False)  # a lost share is not run again
    app.task(name="kneeboard.run_share")(share.run_share)
    return app


def run_agent(name: str, url: str, token: str) -> int:
    """Register, measure the clock, start heartbeats and consume this agent's queue until stopped."""
    if os.environ.get("DATABASE_URL"):
        print("kneeboard agent: DATABASE_URL is set; an agent talks to the API only and must not hold database credentials",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    api = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    try:
        welcome = register(api, name)
        clock = Clock()
        for _ in range(ROUND_TRIPS):
            beat(api, name, clock)
    except httpx.HTTPError as exc:
        print(f"kneeboard agent: cannot register with {url}: {exc}", file=sys.stderr)
        return 1
    offset, rtt = clock.best()
    log.info("agent %s registered; clock offset %.3f ms (round trip %.3f ms)", name, offset * 1000, rtt * 1000)
    share.CONTEXT = ctx = share.AgentContext(name=name, api=api, broker=redis.Redis.from_url(welcome["broker_url"]),
                                             cpus=os.cpu_count() or 1, offset_s=offset)
    threading.Thread(target=_heartbeats, args=(api, name, clock, welcome["heartbeat_s"], ctx), daemon=True).start()
    celery_app(welcome["broker_url"]).worker_main(["worker", "-Q", name, "--pool=solo", "-c", "1", "-n", f"{name}@%h", "--loglevel=INFO",
                                                   "--without-gossip", "--without-mingle"])  # fmt: skip
    return 0
