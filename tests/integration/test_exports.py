"""Reports that travel (docs/exports.md): the HTML file of a 50-point campaign with monitors stays small and carries no
script, the Markdown zip's tables parse and its charts are SVG, and a share link downloads its own campaign only.
The renderer is the real one (node, frontend/dist-export); the browser test (tests/e2e/test_offline_exports.py) opens the files."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
import secrets
import zipfile
import xml.etree.ElementTree as ET

import httpx
import pytest
from markdown_it import MarkdownIt

from tests.support.reports import HOSTILE, add_samples, import_campaign

SVG = "{http://www.w3.org/2000/svg}"


class Tags(HTMLParser):
    """Every tag of a page with its attributes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):  # noqa: ANN001, ANN201
        self.tags.append((tag, dict(attrs)))


@pytest.fixture(scope="module")
def fifty(stack) -> dict:
    """A 50-point campaign, 60 s a point, with the samples of mpstat (4 CPUs and overall) and ping beside each point."""
    campaign = import_campaign(stack, f"fifty {HOSTILE} {secrets.token_hex(3)}", points=50)
    notes = stack.api.patch(f"/api/v1/campaigns/{campaign['id']}", json={"notes": f"notes: {HOSTILE}\nsecond line"})
    assert notes.status_code == 200, notes.text
    assert add_samples(campaign["id"]) == 50 * 60 * 7
    return campaign


def test_fifty_point_report_with_monitors_is_one_small_static_file(stack, fifty):
    response = stack.api.get(f"/api/v1/campaigns/{fifty['id']}/export.html", timeout=90)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html") and "attachment" in response.headers["content-disposition"]
    html = response.text
    print(f"50-point campaign with monitors: {len(response.content) / 1e6:.2f} MB")
    assert len(response.content) < 1.5e6
    # no script of any kind, nothing fetched: the CSP allows nothing but inline style
    tags = Tags(html).tags
    assert not [t for t, _ in tags if t in {"script", "iframe", "object", "embed", "img", "link", "form", "base"}]
    assert not [(t, a) for t, attrs in tags for a in attrs if a.startswith("on") or a == "src"]
    assert all(attrs["href"].startswith(stack.api_url + "/") for t, attrs in tags if "href" in attrs), "a link off the site, or relative"
    assert ("meta", {"http-equiv": "Content-Security-Policy", "content": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"}) in tags
    # names and notes are escaped, the analysis and the frozen plan are there, with the version and the link back
    assert "&lt;script&gt;alert" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'data-testid="card-capacity"' in html and "Frozen plan" in html and '"monitors"' in html.replace("&quot;", '"')
    assert "Exported from Kneeboard 0.1.0" in html and f'href="{stack.api_url}/campaigns/{fifty["id"]}"' in html
    figures = re.findall(r'<figure class="chart" aria-label="([^"]+)"', html)
    assert any(f.startswith("CPU (mpstat)") for f in figures) and any(f.startswith("Round trip (ping)") for f in figures), figures
    assert any(f.startswith("Campaign timeline") for f in figures) and any(f.startswith("Stability") for f in figures), figures
    assert html.count("<tr") >= 51  # the points table: a header and 50 rows


def test_markdown_zip_tables_parse_and_charts_are_svg(stack, fifty):
    response = stack.api.get(f"/api/v1/campaigns/{fifty['id']}/export.md.zip", timeout=90)
    assert response.status_code == 200, response.text
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    folder = f"campaign-{fifty['id']}"
    names = archive.namelist()
    assert f"{folder}/report.md" in names
    report = archive.read(f"{folder}/report.md").decode()
    md = MarkdownIt("commonmark").enable("table")  # raw HTML allowed, as many blogs do
    tokens = md.parse(report)
    tables = [i for i, t in enumerate(tokens) if t.type == "table_open"]
    assert len(tables) >= 3, "points, environment and target as tables"
    # the points table: its header names the percentiles, one row per point, and the figures of the JSON API
    headers = [t.content for t in tokens[tables[0]:] if t.type == "inline"][:20]
    assert "Latency p99" in headers and "Achieved" in headers, headers
    body_rows = [t for t in tokens[tables[0]:] if t.type == "tr_open"]
    assert len(body_rows) >= 51
    assert "| 50 | stability |" in report
    # hostile text stays text once rendered: no tag from a name or a note, nor a stray table cell
    rendered = md.render(report)
    assert "<script" not in rendered, rendered[:2000]
    assert "<img src=x" not in rendered and "&lt;script&gt;alert" in rendered
    images = re.findall(r"!\[[^\]]*\]\((charts/[^)]+\.svg)\)", report)
    assert len(images) >= 5 and all(f"{folder}/{i}" in names for i in images)
    for image in images:
        root = ET.fromstring(archive.read(f"{folder}/{image}"))
        assert root.tag == f"{SVG}svg" and float(root.get("width")) > 0 and float(root.get("height")) > 0
        assert root.iter(f"{SVG}path"), image
        assert "var(" not in archive.read(f"{folder}/{image}").decode(), f"{image} depends on the page's style sheet"


def test_share_link_downloads_its_campaign_and_nothing_else(stack, fifty):
    other = import_campaign(stack, f"other {secrets.token_hex(3)}", points=6)
    share = stack.api.post(f"/api/v1/campaigns/{other['id']}/shares", json={"expires_in_s": 600})
    assert share.status_code == 201, share.text
    token = share.json()["url"].rsplit("/", 1)[1]
    with httpx.Client(base_url=stack.api_url, timeout=90) as visitor:  # no credentials
        own = visitor.get(f"/api/v1/shared/{token}/export.html")
        assert own.status_code == 200, own.text
        assert other["name"] in own.text and fifty["name"].split(" ")[0] + " sweep" not in own.text
        assert f'href="{stack.api_url}/s/{token}"' in own.text  # the link back is the share link, not a signed-in page
        assert visitor.get(f"/api/v1/shared/{token}/campaigns/{fifty['id']}/export.html").status_code == 404
        for path in (f"/api/v1/campaigns/{fifty['id']}/export.html", f"/api/v1/campaigns/{other['id']}/export.md.zip",
                     f"/api/v1/compare/export.html?c={fifty['id']}&c={other['id']}", f"/api/v1/compare/export.md.zip?c={fifty['id']}&c={other['id']}"):  # fmt: skip
            assert visitor.get(path).status_code == 401, path
        assert visitor.get(f"/api/v1/shared/{token}x/export.html").status_code == 404
        assert stack.api.delete(f"/api/v1/shares/{share.json()['id']}").status_code == 204
        assert visitor.get(f"/api/v1/shared/{token}/export.html").status_code == 410
