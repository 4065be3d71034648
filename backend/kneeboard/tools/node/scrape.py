"""The node monitor's process: scrape a node_exporter every INTERVAL seconds for DURATION seconds.

    python -m kneeboard.tools.node.scrape URL INTERVAL DURATION

Prints one JSON line per scrape: {"t": epoch, "cpu": {cpu: {mode: s}}, "net": {device: {...}},
"softnet": {cpu: {...}}} with the raw counters, or {"t": epoch, "error": "..."} when a scrape
failed. Rates are the adapter's business (kneeboard.tools.node.rates). Stops at DURATION, or at
SIGINT/SIGTERM (how the worker ends a monitor when its point ends).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from kneeboard.tools.exporter.fetch import ScrapeError, fetch
from kneeboard.tools.exporter.scrape import beat, beat_times, until_stopped
from kneeboard.validators import check_metrics_url


_NET = {  # node_exporter counter → our field
    "node_network_receive_packets_total": "rx_packets",
    "node_network_transmit_packets_total": "tx_packets",
    "node_network_receive_drop_total": "rx_drop",
    "node_network_transmit_drop_total": "tx_drop",
}
_SOFTNET = {
    "node_softnet_processed_total": "processed",
    "node_softnet_dropped_total": "dropped",
    "node_softnet_times_squeezed_total": "squeezed",
}


def read_counters(text: str) -> dict[str, Any]:
    """Prometheus text → {"cpu": {cpu: {mode: seconds}}, "net": {dev: {field: n}}, "softnet": {cpu: {field: n}}}.

    Raises ScrapeError when the text is not Prometheus exposition format or has no CPU counters.
    """
    counters: dict[str, Any] = {"cpu": {}, "net": {}, "softnet": {}}
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                _keep(counters, sample.name, sample.labels, sample.value)
    except ValueError as exc:
        raise ScrapeError(f"not Prometheus text ({exc})") from None
    if not counters["cpu"]:
        raise ScrapeError("no node_cpu_seconds_total in the page (is this a node_exporter?)")
    return counters


def _keep(counters: dict[str, Any], name: str, labels: dict[str, str], value: float) -> None:
    if name == "node_cpu_seconds_total" and "cpu" in labels and "mode" in labels:
        counters["cpu"].setdefault(labels["cpu"], {})[labels["mode"]] = value
    elif name in _NET and "device" in labels:
        counters["net"].setdefault(labels["device"], {})[_NET[name]] = value
    elif name in _SOFTNET and "cpu" in labels:
        counters["softnet"].setdefault(labels["cpu"], {})[_SOFTNET[name]] = value


def scrape_once(url: str, timeout_s: float) -> dict[str, Any]:
    """One scrape as the JSON-able line the adapter reads; t is the middle of the request."""
    began = time.time()
    try:
        line: dict[str, Any] = read_counters(fetch(url, timeout_s))
    except ScrapeError as exc:
        line = {"error": f"{url}: {exc}"}
    return {"t": round((began + time.time()) / 2, 4), **line}


def run(url: str, interval_s: float, duration_s: float) -> None:
    """Scrape on a fixed beat (interval_s apart) until duration_s has passed; one line each."""
    beat(lambda timeout_s: scrape_once(url, timeout_s), interval_s, duration_s)


def main(argv: list[str]) -> int:
    """Entry point: URL INTERVAL DURATION (checked again here: the process may be run by hand)."""
    if len(argv) != 3:
        print("usage: python -m kneeboard.tools.node.scrape URL INTERVAL_S DURATION_S", file=sys.stderr)
        return 2
    try:
        url = check_metrics_url(argv[0])
        interval_s, duration_s = beat_times(argv[1], argv[2])
    except ValueError as exc:
        print(f"node scrape: {exc}", file=sys.stderr)
        return 2
    return until_stopped(lambda: run(url, interval_s, duration_s))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
