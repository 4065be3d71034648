"""Issue 47, items 4 and 5, in the exported files (the real renderer: node and the built frontend/dist-export): the real
AdGuard campaign's Markdown report leads its conclusion with the headline, then a paragraph per section, in the API's
words, with no phrase said twice; the CoreDNS pair's comparison file says each undecided row's next step."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-campaigns"


def _import(stack, name: str) -> dict:
    response = stack.api.post("/api/v1/campaigns/import", files=[("file", (name, (FIXTURES / name).read_bytes()))])
    assert response.status_code == 201, response.text
    return response.json()


def _markdown(response, folder: str) -> str:
    assert response.status_code == 200, response.text
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    return next(archive.read(n).decode() for n in archive.namelist() if n.startswith(folder) and n.endswith("report.md"))


def _squash(text: str) -> str:
    """Markdown's escapes and line breaks aside: the words as a reader sees them."""
    return " ".join(text.replace("\\", "").split())


def test_the_markdown_report_leads_with_the_headline_then_the_sections(stack):
    campaign = _import(stack, "adguard-seed000-template.json")
    analysis = stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["analysis"]
    assert analysis["headline"] and analysis["sections"]
    report = _markdown(stack.api.get(f"/api/v1/campaigns/{campaign['id']}/export.md.zip", timeout=90), f"campaign-{campaign['id']}")
    words = _squash(report)
    at = words.index(_squash(analysis["headline"]))
    for section in analysis["sections"]:
        assert words.index(_squash(section["text"])) > at, section["key"]
        at = words.index(_squash(section["text"]))
    assert "no bottleneck named: no bottleneck named" not in words.lower()
    html = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/export.html", timeout=90)
    assert html.status_code == 200 and 'data-testid="conclusion-headline"' in html.text


def test_the_comparison_file_says_each_undecided_rows_next_step(stack):
    ids = [_import(stack, f"coredns-{n}-untuned.json")["id"] for n in ("minimal", "log")]
    params = [("c", i) for i in ids]
    body = stack.api.get("/api/v1/compare", params=params).json()
    steps = [row["next_steps"][str(ids[1])]["text"] for row in body["headline"] if (row.get("next_steps") or {}).get(str(ids[1]))]
    assert steps
    response = stack.api.get("/api/v1/compare/export.md.zip", params=params, timeout=90)
    words = _squash(_markdown(response, ""))
    for text in steps:
        assert f"Next step: {_squash(text)}" in words, text
