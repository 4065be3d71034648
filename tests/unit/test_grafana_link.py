"""GRAFANA_URL: checked when the settings are read (so at startup), and the one place a report's dashboard link is built."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from pydantic import ValidationError

from kneeboard.config import Settings
from kneeboard.grafana import DASHBOARD_UID, dashboard_link

START = datetime(2026, 11, 27, 4, 0, 0, tzinfo=UTC)
END = datetime(2026, 11, 27, 4, 5, 30, 250_000, tzinfo=UTC)


@pytest.mark.parametrize("given", ["ftp://grafana.example.com", "grafana.example.com", "https://", "https://g.example.com/?orgId=2",
                                   "https://admin:pw@g.example.com", "http://g.example.com:99999", "https://g.example.com/#x"])
def test_a_bad_grafana_url_stops_the_settings(given):
    with pytest.raises(ValidationError, match="grafana_url"):
        Settings(grafana_url=given)


def test_a_good_grafana_url_is_kept_without_its_trailing_slash(monkeypatch):
    monkeypatch.setenv("GRAFANA_URL", "https://ops.example.com/grafana/")
    assert Settings().grafana_url == "https://ops.example.com/grafana"
    assert Settings(grafana_url="  ").grafana_url == ""


def test_the_link_spans_the_campaign_in_milliseconds():
    link = dashboard_link("https://ops.example.com/grafana", [(42, START, END)])
    parts = urlsplit(link)
    assert parts.path == f"/grafana/d/{DASHBOARD_UID}/kneeboard-load-and-servers"
    assert parse_qs(parts.query) == {"orgId": ["1"], "from": ["1795752000000"], "to": ["1795752330250"], "var-campaign": ["42"]}


def test_a_comparison_spans_all_its_campaigns_and_names_each_once():
    later = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
    link = dashboard_link("http://g:3000", [(7, later, None), (3, START, END), (3, START, END), (9, None, None)])
    query = parse_qs(urlsplit(link).query)
    assert query["from"] == ["1795752000000"] and query["to"] == ["now"]  # one still runs
    assert query["var-campaign"] == ["7", "3"]  # 9 never started: not in the range


def test_no_link_without_a_url_or_a_start():
    assert dashboard_link("", [(1, START, END)]) is None
    assert dashboard_link("http://g:3000", [(1, None, None)]) is None
