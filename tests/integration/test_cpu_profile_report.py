"""CPU profiles where the numbers are (issue 38): the exported HTML draws the detailed point's flame graph as static
SVG with its top functions, a share link serves that point's profile (and no other campaign's), and both escape frame
names. The renderer is the real one (node, frontend/dist-export); tests/e2e/test_cpu_profile_views.py opens the views."""

from __future__ import annotations

import io
import re
import secrets
import zipfile
from html import unescape

import httpx

from tests.integration.test_exports import Tags
from tests.support.cpu_profiles import HOSTILE_FRAME, profiled_campaign
from tests.support.reports import import_campaign

LOG = "github.com/coredns/coredns/plugin/log.(*Logger).ServeDNS"


def frames(html: str) -> list[str]:
    """The flame graph frames' titles in a page."""
    return [unescape(t) for t in re.findall(r'<g class="flame-frame"[^>]*><title>([^<]*)</title>', html)]


def test_the_exported_report_draws_the_detailed_points_flame_graph(stack):
    campaign = profiled_campaign(stack, f"profiled {secrets.token_hex(3)}", "coredns-log_file-Q10000")
    response = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/export.html", timeout=90)
    assert response.status_code == 200, response.text
    html = response.text
    drawn = frames(html)
    graph = re.search(r'<svg class="flame-graph".*?</svg>', html, re.S)
    print(f"exported report with a CPU profile: {len(response.content) / 1e3:.0f} kB, its flame graph {len(graph[0]) / 1e3:.0f} kB "
          f"for {len(drawn)} frames")  # fmt: skip
    assert len(drawn) > 50 and any(t.startswith(LOG + ":") for t in drawn)
    assert any(t.startswith(HOSTILE_FRAME + ":") for t in drawn)  # as text in the title, never markup
    tags = Tags(html).tags
    assert not [t for t, _ in tags if t in {"script", "img"}] and not [a for _, attrs in tags for a in attrs if a.startswith("on")]
    assert not [a for t, a in tags if t == "g" and ("tabindex" in a or "role" in a)], "a static graph has nothing to click"
    assert "CPU profile of point 4" in html and "full stacks" in html and 'class="table top-functions"' in html
    assert "Reset zoom" not in html
    # the Markdown report carries the graph as an SVG file of its own
    zipped = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/export.md.zip", timeout=90)
    assert zipped.status_code == 200, zipped.text
    with zipfile.ZipFile(io.BytesIO(zipped.content)) as archive:
        graphs = [n for n in archive.namelist() if "flame-graph" in n and n.endswith(".svg")]
        assert len(graphs) == 1, archive.namelist()
        assert archive.read(graphs[0]).decode().count('class="flame-frame"') == len(drawn)


def test_a_share_link_serves_its_detailed_points_profile_only(stack):
    campaign = profiled_campaign(stack, f"shared profile {secrets.token_hex(3)}", "coredns-minimal-Q10000")
    other = profiled_campaign(stack, f"not shared {secrets.token_hex(3)}", "coredns-minimal-Q10000")
    plain = import_campaign(stack, f"no profile {secrets.token_hex(3)}", points=3, duration_s=20)
    created = stack.api.post(f"/api/v1/campaigns/{campaign['id']}/shares", json={"expires_in_s": 600})
    assert created.status_code == 201, created.text
    token = created.json()["url"].rsplit("/", 1)[1]
    plain_share = stack.api.post(f"/api/v1/campaigns/{plain['id']}/shares", json={"expires_in_s": 600}).json()["url"].rsplit("/", 1)[1]
    with httpx.Client(base_url=stack.api_url, timeout=90) as visitor:  # no credentials
        report = visitor.get(f"/api/v1/shared/{token}").json()
        assert report["cpu_profile_points"] == [campaign["profiled"]]
        assert visitor.get(f"/api/v1/shared/{plain_share}").json()["cpu_profile_points"] == []
        profile = visitor.get(f"/api/v1/shared/{token}/points/{campaign['profiled']}/cpu-profile")
        assert profile.status_code == 200 and profile.json()["stack_depth"] == "full stacks" and HOSTILE_FRAME in profile.json()["folded"]
        top = visitor.get(f"/api/v1/shared/{token}/points/{campaign['profiled']}/cpu-profile/functions", params={"by": "total", "limit": 5})
        assert top.status_code == 200 and len(top.json()["functions"]) == 5 and top.json()["by"] == "total"
        missing = visitor.get(f"/api/v1/shared/{token}/points/{campaign['unprofiled']}/cpu-profile")
        assert missing.status_code == 409 and "no stored CPU profile" in missing.text
        assert visitor.get(f"/api/v1/shared/{token}/points/{other['profiled']}/cpu-profile").status_code == 404
        assert visitor.get(f"/api/v1/shared/{token}/points/{other['profiled']}/cpu-profile/functions").status_code == 404
        exported = visitor.get(f"/api/v1/shared/{token}/export.html")
        assert exported.status_code == 200 and len(frames(exported.text)) > 50
