"""The server-count sweep of test_server_counts against the lab's CoreDNS as shipped (lab-coredns-shipped: Go's default
GOMAXPROCS, in the lab's namespace, its exporter registered by the lab) and the pinned one (lab-coredns, GOMAXPROCS=1)."""

from __future__ import annotations

import pytest

from kneeboard.lab import coredns, namespace
from tests.integration.conftest import skip_without_lab
from tests.integration.test_server_counts import sweep_counts

skip_without_lab()
if coredns.binary() is None:
    pytest.skip(coredns.missing_reason(), allow_module_level=True)


@pytest.mark.parametrize("service", [coredns.SHIPPED_SERVICE, coredns.SERVICE])
def test_the_lab_coredns_counts_what_dnsperf_sent(stack, lab, service):
    lab_target = next(t for t in namespace.targets() if t["name"] == service)
    [exporter] = [e for e in lab_target["exporters"] if "coredns" in e["packs"]]
    body = {k: lab_target[k] for k in ("kind", "host", "port")}
    found = [t for t in stack.api.get("/api/v1/targets").json() if t["name"] == f"{service}-counts"]
    target = found[0]["id"] if found else stack.api.post("/api/v1/targets", json={
        **body, "name": f"{service}-counts", "exporters": [{"name": "coredns", "url": exporter["url"], "packs": ["coredns", "process"]}]}).json()["id"]
    sweep_counts(stack, target, exporter["url"])
