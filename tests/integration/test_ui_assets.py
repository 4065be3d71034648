"""The UI is served like a product: gzip, immutable hashed assets, index.html revalidated."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.fixture()
def ui_client(tmp_path, monkeypatch):
    """The app serving a small built UI from tmp_path (no database is touched by these routes)."""
    from kneeboard.config import get_settings

    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><script type=module src=/assets/index-AbC123.js></script>" + " " * 2000)
    (tmp_path / "assets" / "index-AbC123.js").write_text("export const answer = 42;\n" * 400)
    monkeypatch.setenv("FRONTEND_DIST", str(tmp_path))
    get_settings.cache_clear()
    from kneeboard.main import create_app

    yield TestClient(create_app(), base_url="http://127.0.0.1")
    get_settings.cache_clear()


def test_hashed_assets_are_compressed_and_immutable(ui_client):
    response = ui_client.get("/assets/index-AbC123.js", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert int(response.headers["content-length"]) < 2000 and response.text.startswith("export const answer")


def test_index_html_is_revalidated_and_compressed(ui_client):
    for path in ("/", "/campaigns/12"):
        response = ui_client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and response.headers["cache-control"] == "no-cache"
        assert response.headers["content-encoding"] == "gzip"


def test_api_answers_are_not_touched(ui_client):
    response = ui_client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and len(response.content) > 2000 and "content-encoding" not in response.headers


def test_the_real_stack_serves_headers_when_the_ui_is_built(stack):
    index = stack.api.get("/", headers={"Accept-Encoding": "gzip"})
    if "<script" not in index.text:
        pytest.skip("frontend/dist is not built")
    assert index.headers["cache-control"] == "no-cache"
    src = index.text.split('src="', 1)[1].split('"', 1)[0]
    asset = stack.api.get(src, headers={"Accept-Encoding": "gzip"})
    assert asset.headers["content-encoding"] == "gzip" and "immutable" in asset.headers["cache-control"]
