"""Where Node or the built renderer is missing, exports say so (503 naming what to install); the zip takes only its own files."""

from __future__ import annotations

import json
import zipfile
import io

import pytest

from kneeboard.config import get_settings
from kneeboard.errors import Unavailable
from kneeboard.exports import archive, renderer


@pytest.fixture()
def settings(monkeypatch):
    get_settings.cache_clear()
    yield monkeypatch
    get_settings.cache_clear()


def test_without_node_exports_name_what_is_missing(settings):
    settings.setenv("EXPORT_NODE", "no-such-node-binary")
    with pytest.raises(Unavailable, match="need Node.js: 'no-such-node-binary' is not on PATH"):
        renderer.render({"kind": "campaign"})


def test_without_the_built_renderer_exports_say_how_to_build_it(settings, tmp_path):
    settings.setenv("EXPORT_NODE", "sh")  # any program on PATH: the missing script is what is reported
    settings.setenv("EXPORT_RENDERER", str(tmp_path / "render.js"))
    with pytest.raises(Unavailable, match="not built .*npm run build"):
        renderer.command(markdown=False)


def test_the_zip_holds_the_report_and_its_charts_only():
    files = {"report.md": "# r\n", "charts/01-knee.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>"}
    names = zipfile.ZipFile(io.BytesIO(archive.markdown_zip(json.dumps({"files": files}).encode(), folder="campaign-3"))).namelist()
    assert names == ["campaign-3/report.md", "campaign-3/charts/01-knee.svg"]
    for bad in ("../x.md", "charts/../../etc.svg", "/abs.md", "report.html"):
        with pytest.raises(ValueError):
            archive.markdown_zip(json.dumps({"files": {bad: ""}}).encode(), folder="c")
