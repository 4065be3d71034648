"""The exporter scraper's GET against real tiny servers on loopback: a total deadline however slowly the answer
drips, a body cap, no redirect, the pinned address reached with the URL's own name as Host."""

from __future__ import annotations

import time

import pytest

from kneeboard.tools.exporter.fetch import ScrapeError, fetch
from tests.support.exporter_servers import Endpoint


def test_a_dripping_answer_is_cut_at_the_total_deadline():
    with Endpoint("drip") as drip:
        began = time.monotonic()
        with pytest.raises(ScrapeError, match="timed out: no whole answer within 0.5 s"):
            fetch(drip.url, 0.5)
        took = time.monotonic() - began
    assert 0.45 < took < 0.8, took  # each byte comes within the socket timeout: only the total deadline stops it


def test_the_body_is_capped_and_a_redirect_is_not_followed():
    with Endpoint("oversized") as big, Endpoint("ok") as fine, Endpoint("redirect", location="") as moved:
        moved.location = fine.url
        with pytest.raises(ScrapeError, match="larger than 100000 bytes"):
            fetch(big.url, 2, max_bytes=100_000)
        with pytest.raises(ScrapeError, match="HTTP 302 .*not followed"):
            fetch(moved.url, 2)
        assert fine.requests == []
        assert "node_cpu_seconds_total" in fetch(fine.url, 2)


def test_the_pinned_address_is_reached_with_the_names_host_header():
    with Endpoint("ok") as fine:
        fetch(fine.url, 2, host=f"exporter.example:{fine.port}")
        fetch(fine.url, 2)
    assert fine.requests == [("127.0.0.1", f"exporter.example:{fine.port}"), ("127.0.0.1", f"127.0.0.1:{fine.port}")]
