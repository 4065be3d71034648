"""The node monitor's process: scrape a node_exporter every INTERVAL seconds for DURATION seconds.

    python -m kneeboard.tools.node.scrape URL INTERVAL DURATION

Prints one JSON line per scrape: {"t": epoch, "cpu": {cpu: {mode: s}}, "net": {device: {...}},
"softnet": {cpu: {...}}} with the raw counters, or {"t": epoch, "error": "..."} when a scrape
failed. Rates are the adapter's business (kneeboard.tools.node.rates). Stops at DURATION, or at
SIGINT/SIGTERM (how the worker ends a monitor when its point ends).
"""

from __future__ import annotations

import json
import signal
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from kneeboard.validators import check_metrics_url

MAX_BYTES = 4 * 1_048_576  # a node_exporter page is ~60 KB on a 2-CPU box, a few MB on a very large one
TIMEOUT_SHARE = 0.8  # a scrape gives up after this share of the interval, so scrapes never pile up
MAX_DURATION_S = 86_400.0

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


class ScrapeError(RuntimeError):
    """A scrape that gave no counters (refused, timed out, not 200, too big, not Prometheus text)."""


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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as an error: the policy checked the metrics URL's host, not where it points."""

    def redirect_request(self, *_args, **_kwargs) -> None:
        return None


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect)  # no proxy, no redirect


def fetch(url: str, timeout_s: float, max_bytes: int = MAX_BYTES) -> str:
    """The page at url (at most max_bytes, within timeout_s), never following a redirect nor a proxy setting;
    ScrapeError naming what went wrong."""
    request = urllib.request.Request(url, headers={"Accept": "text/plain;version=0.0.4"})
    try:
        with _OPENER.open(request, timeout=timeout_s) as response:  # noqa: S310 - http:// only, checked
            body = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        moved = " (a redirect: not followed, the target policy checked this URL only)" if 300 <= exc.code < 400 else ""
        raise ScrapeError(f"answered HTTP {exc.code}{moved}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ScrapeError(str(getattr(exc, "reason", exc))) from None
    if len(body) > max_bytes:
        raise ScrapeError(f"the page is larger than {max_bytes} bytes")
    return body.decode("utf-8", errors="replace")


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
    start = time.monotonic()
    beat = 0
    while time.monotonic() - start <= duration_s:
        print(json.dumps(scrape_once(url, interval_s * TIMEOUT_SHARE), separators=(",", ":")), flush=True)
        beat += 1
        pause = start + beat * interval_s - time.monotonic()
        if pause > 0:
            time.sleep(pause)


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    """Entry point: URL INTERVAL DURATION (checked again here: the process may be run by hand)."""
    if len(argv) != 3:
        print("usage: python -m kneeboard.tools.node.scrape URL INTERVAL_S DURATION_S", file=sys.stderr)
        return 2
    try:
        url = check_metrics_url(argv[0])
        interval_s, duration_s = float(argv[1]), float(argv[2])
        if not (0.1 <= interval_s <= 60 and 0 < duration_s <= MAX_DURATION_S):
            raise ValueError(f"interval must be 0.1..60 s and duration 0..{MAX_DURATION_S:g} s")
    except ValueError as exc:
        print(f"node scrape: {exc}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _stop)
    try:
        run(url, interval_s, duration_s)
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
