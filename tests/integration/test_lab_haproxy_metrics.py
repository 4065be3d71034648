"""HAProxy's built-in Prometheus exporter in the lab (issue 46 item 3): the lab-haproxy target lists it with the
`haproxy` pack, and the pack's request count (its `requests` role, what the server evidence sets against the client's)
rises by exactly the requests sent through HAProxy, as its own stats socket counts them too (root, haproxy needed)."""

from __future__ import annotations

import urllib.request

import pytest

from kneeboard.exporters.packs import all_packs
from kneeboard.lab import haproxy, namespace
from kneeboard.lab.system import which
from kneeboard.tools.exporter.select import select

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_balancers import spread

skip_without_lab()
if which(haproxy.PACKAGE) is None:
    pytest.skip("haproxy is not installed (scripts/install-deps.sh)", allow_module_level=True)

REQUESTS = 200


def frontend_requests() -> dict[str, float]:
    """The haproxy pack's frontend request counter per frontend, from HAProxy's own /metrics."""
    url = next(e["url"] for e in namespace.exporters(haproxy.SERVICE) if e["name"] == "haproxy")
    page = urllib.request.urlopen(url, timeout=5).read().decode()
    return select(page, [all_packs()["haproxy"]])["values"]["haproxy.frontend_requests"]


def stats_requests(workdir) -> int:  # noqa: ANN001 - the lab's workdir
    """lb's requests as HAProxy's stats socket counts them (the independent reading)."""
    row = next(r for r in haproxy.show_stat(workdir / "haproxy") if (r["pxname"], r["svname"]) == ("lb", "FRONTEND"))
    return int(row["req_tot"])


def test_haproxys_exporter_counts_every_request_sent_through_it(lab):
    workdir, _ = lab
    before, socket_before = frontend_requests(), stats_requests(workdir)
    answered = spread(haproxy.PORT, REQUESTS)
    after, socket_after = frontend_requests(), stats_requests(workdir)
    counted = after["lb"] - before["lb"]
    print(f"\nfigures: {REQUESTS} GETs through HAProxy: /metrics counted {counted:.0f} on lb, the stats socket "
          f"{socket_after - socket_before}, its own frontend's scrapes {after.get('prometheus', 0) - before.get('prometheus', 0):.0f}")
    assert sum(answered.values()) == REQUESTS and set(answered) == {"b1", "b2", "b3"}, answered
    assert counted == REQUESTS == socket_after - socket_before  # exact: counters, no sampling
    assert "prometheus" in after  # the exporter's own frontend counts its scrapes apart from lb's
