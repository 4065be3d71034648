"""With GRAFANA_URL set, a campaign's answer and a comparison's carry the dashboard link over their time range (built in
kneeboard/grafana.py, read here from campaigns imported into the real stack's database); without it, none."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from kneeboard.campaigns.schemas import CampaignOut
from kneeboard.campaigns.service import describe, get_campaign
from kneeboard.compare.schemas import Comparison
from kneeboard.compare.service import build
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.shares.service import shared_report


def imported(stack, fixtures_dir, name: str) -> int:
    response = stack.api.post("/api/v1/campaigns/import", files=[("file", (name, (fixtures_dir / name).read_bytes()))])
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_campaign_and_comparison_answers_link_to_their_time_range(stack, fixtures_dir, monkeypatch):
    first = imported(stack, fixtures_dir, "dnsperf-2.10-scal-c1-Q2500.txt")
    second = imported(stack, fixtures_dir, "dnsperf-2.10-scal-c2-Q5000.txt")
    assert stack.api.get(f"/api/v1/campaigns/{first}").json()["grafana_url"] is None  # the stack runs without GRAFANA_URL
    tokens = [stack.api.post(path, json=body).json()["url"].rsplit("/", 1)[-1] for path, body in (
        (f"/api/v1/campaigns/{first}/shares", {"expires_in_s": 600}),
        ("/api/v1/shares", {"campaign_ids": [first, second], "expires_in_s": 600}))]  # fmt: skip
    monkeypatch.setenv("GRAFANA_URL", "https://ops.example.com/grafana/")
    get_settings.cache_clear()
    try:
        with session_scope() as session:
            one = CampaignOut.model_validate(describe(get_campaign(first, session=session), session=session))
            both = Comparison.model_validate(build([str(first), str(second)], session=session))
            shared = [shared_report(token, session=session) for token in tokens]
            spans = {c.id: (c.started_at, c.ended_at) for c in (get_campaign(first, session=session), get_campaign(second, session=session))}
    finally:
        monkeypatch.delenv("GRAFANA_URL")
        get_settings.cache_clear()
    ms = lambda when: str(int(when.timestamp() * 1000))  # noqa: E731
    link = urlsplit(one.grafana_url)
    assert f"{link.scheme}://{link.netloc}{link.path}" == "https://ops.example.com/grafana/d/kneeboard-prometheus/kneeboard-load-and-servers"
    assert parse_qs(link.query) == {"orgId": ["1"], "from": [ms(spans[first][0])], "to": [ms(spans[first][1])], "var-campaign": [str(first)]}
    query = parse_qs(urlsplit(both.grafana_url).query)
    assert query["var-campaign"] == [str(first), str(second)]
    assert query["from"] == [min(ms(s) for s, _ in spans.values())] and query["to"] == [max(ms(e) for _, e in spans.values())]
    assert both.campaigns[0].grafana_url == one.grafana_url
    assert shared[0]["campaign"]["grafana_url"] is None and shared[1]["comparison"]["grafana_url"] is None  # not for outsiders
