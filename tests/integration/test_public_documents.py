"""Issue 49, item 5: what a public document may carry (kneeboard/shares/public.py). With GRAFANA_URL set and targets
with exporters, a node_exporter and a Prometheus selector, no share link's page JSON nor its HTML and Markdown exports
(every public export route) shows the team's Grafana or an exporter's address; the signed-in answers still do.

The data are the two real CoreDNS campaigns (tests/fixtures/real-campaigns: their targets' exporters are CoreDNS's
own :9153), each given a node_exporter and a Prometheus source before import. The API is one of this test's own,
started beside the stack's with GRAFANA_URL set (the stack's runs without); the renderer is the real one (node)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import httpx
import pytest

from kneeboard.shares.public import public
from kneeboard.stack import start_api

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-campaigns"
GRAFANA = "https://grafana.ops.example.net:3000/grafana"
NODE = "http://{host}:9100/metrics"  # each target's node_exporter (added: the fixtures' targets have none)
SELECTOR = '{{job="coredns",instance="10.9.{octet}.5:9153"}}'  # an address only the selector names


def _document(name: str, octet: int) -> tuple[bytes, dict]:
    """The fixture's export with a node_exporter and a Prometheus source on its target; and that target."""
    doc = json.loads((FIXTURES / name).read_text())
    target = doc["campaign"]["target"]
    target.update(metrics_url=NODE.format(host=target["host"]),
                  prometheus={"server": "team", "selector": SELECTOR.format(octet=octet), "packs": ["coredns"]})  # fmt: skip
    return json.dumps(doc).encode(), target


def _texts(response: httpx.Response) -> str:
    """What a reader of the answer gets: its text, or every file of a zip."""
    assert response.status_code == 200, response.text[:500]
    if response.headers["content-type"].startswith("application/zip"):
        with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
            return "\n".join(archive.read(n).decode() for n in archive.namelist())
    return response.text


@pytest.fixture(scope="module")
def graf(stack):
    """An API with GRAFANA_URL set (same database and broker as the stack's), signed in; the two campaigns imported."""
    api, url = start_api({**stack.env, "GRAFANA_URL": GRAFANA}, stack.tmp, log="api-public-documents.log")
    stack.started.append(api)
    with httpx.Client(base_url=url, timeout=120, headers=stack.auth) as client:
        campaigns = []
        for octet, name in enumerate(("coredns-minimal-untuned.json", "coredns-log-untuned.json")):
            body, target = _document(name, octet)
            imported = client.post("/api/v1/campaigns/import", files=[("file", (name, body))])
            assert imported.status_code == 201, imported.text
            campaigns.append((imported.json(), target))
        yield client, url, campaigns


def _refused(targets: list[dict]) -> list[str]:
    """The addresses no public document may show: the Grafana host, each exporter's and node_exporter's URL and host:port,
    the selector's instance."""
    refused = ["grafana.ops.example.net"]
    for t in targets:
        urls = [e["url"] for e in t["exporters"]] + [t["metrics_url"]]
        refused += urls + [u.split("/")[2] for u in urls] + [t["prometheus"]["selector"].split('instance="')[1].split('"')[0]]
    return refused


def test_public_share_documents_carry_no_team_address_and_signed_in_ones_do(graf):
    client, url, campaigns = graf
    (first, first_target), (second, second_target) = campaigns
    refused = _refused([first_target, second_target])
    assert len(refused) == 1 + 2 * 5 and "127.0.0.4:9153" in refused  # the real fixture's CoreDNS exporter

    # signed in: the campaign, the comparison and the campaign's export still show the Grafana link and the exporters
    described = client.get(f"/api/v1/campaigns/{first['id']}").json()
    assert described["grafana_url"].startswith(GRAFANA + "/d/") and described["target"]["exporters"][0]["url"] == "http://127.0.0.4:9153/metrics"
    compared = client.get("/api/v1/compare", params=[("c", first["id"]), ("c", second["id"])]).json()
    assert compared["grafana_url"].startswith(GRAFANA + "/d/")
    assert "grafana.ops.example.net" in _texts(client.get(f"/api/v1/campaigns/{first['id']}/export.html"))

    # the links: one campaign's and the comparison's
    tokens = {}
    for kind, path, body in (("campaign", f"/api/v1/campaigns/{first['id']}/shares", {"expires_in_s": 600}),
                             ("comparison", "/api/v1/shares", {"campaign_ids": [first["id"], second["id"]], "expires_in_s": 600})):  # fmt: skip
        created = client.post(path, json=body)
        assert created.status_code == 201, created.text
        tokens[kind] = created.json()["url"].rsplit("/", 1)[-1]

    with httpx.Client(base_url=url, timeout=120) as reader:  # no login: what anyone holding the link gets
        answers, names = {}, {}  # names: the campaign name each answer must show
        for kind, token in tokens.items():
            for form, path in (("page JSON", ""), ("HTML", "/export.html"), ("Markdown", "/export.md.zip")):
                answers[f"{kind} {form}"], names[f"{kind} {form}"] = reader.get(f"/api/v1/shared/{token}{path}"), first["name"]
            for c in (first, second)[: 1 if kind == "campaign" else 2]:
                what = f"{kind}: campaign {c['id']} HTML"
                answers[what], names[what] = reader.get(f"/api/v1/shared/{token}/campaigns/{c['id']}/export.html"), c["name"]
        texts = {what: _texts(answer) for what, answer in answers.items()}
        assert reader.get(f"/api/v1/campaigns/{first['id']}").status_code == 401  # the signed-in route is not open to it

    for what, text in texts.items():
        leaked = [address for address in refused if address in text]
        print(f"{what}: {len(text):,} characters, refused addresses found: {leaked}")
        assert not leaked, what
        assert names[what] in text, what  # the report is there (a page that shows nothing would pass the line above)
    page = answers["campaign page JSON"].json()
    assert page["campaign"]["grafana_url"] is None and page["campaign"]["target"]["exporters"][0] == {"name": "coredns", "url": None, "packs": first_target["exporters"][0]["packs"]}
    assert page["campaign"]["target"]["host"] == "127.0.0.4"  # what the report is about stays: the target itself
    assert answers["comparison page JSON"].json()["comparison"]["grafana_url"] is None


def test_public_keeps_other_keys_and_cuts_refused_strings_out_of_texts():
    """The function on its own: a warning quoting an exporter, and a Prometheus server URL named by the caller."""
    doc = {"target": {"host": "127.0.0.4", "exporters": [{"name": "coredns", "url": "http://127.0.0.4:9153/metrics", "packs": ["go"]}]},
           "warnings": ["exporter coredns: http://127.0.0.4:9153/metrics: connection refused", "read 127.0.0.4:9153 late"],
           "note": "from http://prom.internal:9090 at 10:00", "link": "https://kb.example/s/abc", "n": 3}  # fmt: skip
    shown = public(doc, addresses=["http://prom.internal:9090", ""])
    assert shown["target"] == {"host": "127.0.0.4", "exporters": [{"name": "coredns", "url": None, "packs": ["go"]}]}
    assert shown["warnings"] == ["exporter coredns: [withheld]: connection refused", "read [withheld] late"]
    assert shown["note"] == "from [withheld] at 10:00" and shown["link"] == doc["link"] and shown["n"] == 3
    assert doc["target"]["exporters"][0]["url"] == "http://127.0.0.4:9153/metrics"  # a copy: the input is left as it was
