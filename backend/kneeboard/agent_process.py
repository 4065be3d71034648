"""`kneeboard agent --name NAME --url API_URL` with an agent credential: a load generator that holds one
credential and the API's URL, nothing else (no broker, no database). It registers through the API with its
facts (one live process per name), measures its clock offset to the server (NTP-style, best of several round
trips), sends heartbeats, and takes its shares by long-poll, one at a time."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
from collections import deque

import uuid

import httpx

from kneeboard.fanout.link import ApiLink, LinkRefused, url_refusal
from kneeboard.fanout.share import AgentContext, run_share
from kneeboard.observers.host import ConfigRefused
from kneeboard.observers.agent import HostSide, start_observing
from kneeboard.observers.link import ObserverLink
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


def beat(link: ApiLink, instance: str, clock: Clock) -> None:
    """One heartbeat: reports the current offset, and measures it once more from the reply."""
    body = dict(zip(("clock_offset_s", "rtt_s"), clock.best())) if clock.samples else {}
    sent = time.time()
    server = link.beat({"instance": instance, **body})
    clock.add(sent, server, time.time())


def facts(api_host: str | None) -> dict:
    """What this agent tells the server about itself."""
    return {"hostname": socket.gethostname(), "cpus": os.cpu_count() or 1, "addresses": addresses(api_host), "tools": probe_versions()}


def register(link: ApiLink, instance: str, name: str, api_host: str | None, stop: threading.Event) -> dict:
    """Say hello until the server takes this process as the agent (it waits while another live process holds the name)."""
    told = False
    while not stop.is_set():
        try:
            return link.hello(name, instance, facts(api_host))
        except LinkRefused as exc:
            if exc.status != 409:
                raise
            if not told:
                log.warning("waiting to register as %s: %s", name, exc)
                told = True
        stop.wait(2.0)
    raise SystemExit(0)


def _heartbeats(link: ApiLink, instance: str, clock: Clock, period_s: float, ctx: AgentContext, stop: threading.Event) -> None:
    while not stop.wait(period_s):
        try:
            beat(link, instance, clock)
            ctx.offset_s = clock.best()[0]
        except LinkRefused as exc:
            if exc.status in (401, 403, 409):  # revoked, or another process is this agent now
                log.error("agent %s stops: %s", ctx.name, exc)
                stop.set()
            else:
                log.warning("heartbeat refused: %s", exc)
        except httpx.HTTPError as exc:
            log.warning("heartbeat failed: %s", exc)


def _take_work(take, handle, ctx: AgentContext, stop: threading.Event) -> None:
    """Until stopped: the next job by long-poll (`take()`, None when none came within the poll), given to `handle`; a
    refused credential (401, 403) or a superseded process (409) stops the agent."""
    while not stop.is_set():
        try:
            job = take()
        except LinkRefused as exc:
            if exc.status in (401, 403, 409):
                log.error("agent %s stops: %s", ctx.name, exc)
                return
            log.warning("work poll refused: %s", exc)
            stop.wait(2.0)
            continue
        except httpx.HTTPError as exc:
            log.warning("work poll failed: %s", exc)
            stop.wait(2.0)
            continue
        if job is not None:
            handle(job)


def run_agent(name: str, url: str, credential: str, *, ca_bundle: str | None = None, insecure_http: bool = False,
              observe: bool = False, actions_file: str | None = None) -> int:
    """Register, measure the clock, start heartbeats and take this agent's shares (an observer's: its observe
    assignments, observers/agent.py) until stopped."""
    for variable in ("DATABASE_URL", "REDIS_URL"):
        if os.environ.get(variable):
            print(f"kneeboard agent: {variable} is set; an agent talks to the API only and must not hold database or broker credentials",
                  file=sys.stderr)
            return 2
    refused = url_refusal(url, insecure_http)
    if refused:
        print(f"kneeboard agent: {refused}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if actions_file and not observe:
        print("kneeboard agent: --actions is for an observer (--observe): a load agent acts on nothing", file=sys.stderr)
        return 2
    try:
        host = HostSide.from_file(actions_file)
    except ConfigRefused as exc:
        print(f"kneeboard agent: --actions: {exc}", file=sys.stderr)
        return 2
    link, instance, stop = (ObserverLink if observe else ApiLink)(url, credential, ca_bundle), uuid.uuid4().hex, threading.Event()
    try:
        welcome = register(link, instance, name, link.http.base_url.host, stop)
        clock = Clock()
        for _ in range(ROUND_TRIPS):
            beat(link, instance, clock)
    except (LinkRefused, httpx.HTTPError) as exc:
        print(f"kneeboard agent: cannot register with {url}: {exc}", file=sys.stderr)
        return 1
    offset, rtt = clock.best()
    log.info("agent %s registered; clock offset %.3f ms (round trip %.3f ms)", name, offset * 1000, rtt * 1000)
    ctx = AgentContext(name=name, link=link, cpus=os.cpu_count() or 1, offset_s=offset)
    threading.Thread(target=_heartbeats, args=(link, instance, clock, welcome["heartbeat_s"], ctx, stop), daemon=True).start()
    if observe:  # each assignment in a thread of its own: points may overlap, and the next must be acknowledged at once
        _take_work(lambda: link.take_assignment(instance, welcome["poll_s"]), lambda job: start_observing(job, link, ctx, host), ctx, stop)
    else:
        _take_work(lambda: link.take(instance, welcome["poll_s"]), lambda job: run_share(job, ctx), ctx, stop)
    return 1 if stop.is_set() else 0
