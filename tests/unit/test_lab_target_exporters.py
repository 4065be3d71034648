"""Every lab target lists the exporters that read it (issue 46 item 3): the lab's node_exporter with the `node` pack on
each, CoreDNS's own prometheus plugin with its packs, HAProxy's built-in Prometheus exporter with the `haproxy` pack,
each accepted as a target's exporters are."""

from __future__ import annotations

from pathlib import Path

from kneeboard.exporters.packs import all_packs
from kneeboard.lab import coredns, haproxy, namespace
from kneeboard.targets.schemas import TargetCreate

NODE = ("node", "http://10.77.0.2:9100/metrics", ["node"])


def listed(name: str) -> list[tuple[str, str, list[str]]]:
    body = TargetCreate(**next(t for t in namespace.targets() if t["name"] == name))
    return [(e.name, str(e.url), e.packs) for e in body.exporters]


def test_every_lab_target_lists_the_labs_node_exporter_with_the_node_pack():
    names = [t["name"] for t in namespace.targets()]
    assert len(names) >= 12
    for name in names:
        assert NODE in listed(name), name
    assert all(pack in all_packs() for name in names for _, _, packs in listed(name) for pack in packs)


def test_the_servers_own_exporters_come_first_with_their_packs():
    assert listed(coredns.SERVICE)[0] == ("coredns", f"http://10.77.0.2:{coredns.METRICS_PORT}/metrics", ["coredns", "process", "go"])
    assert listed(coredns.SHIPPED_SERVICE)[0] == ("coredns", f"http://10.77.0.2:{coredns.SHIPPED_METRICS_PORT}/metrics",
                                                  ["coredns", "process", "go"])
    assert listed(haproxy.SERVICE) == [("haproxy", f"http://10.77.0.2:{haproxy.METRICS_PORT}/metrics", ["haproxy"]), NODE]
    assert listed("lab-caddy") == [NODE]  # Caddy's admin API (and its metrics) is on a unix socket only


def test_haproxy_serves_its_prometheus_exporter_from_a_frontend_of_its_own(tmp_path: Path):
    text = haproxy.config_text("10.77.0.2", tmp_path, haproxy.DEFAULT)
    own = text[text.index("frontend prometheus"):text.index("frontend lb")]
    assert f"bind 10.77.0.2:{haproxy.METRICS_PORT}" in own and "use-service prometheus-exporter if { path /metrics }" in own
    assert "default_backend servers" not in own and haproxy.METRICS_PORT != haproxy.PORT
