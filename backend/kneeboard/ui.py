"""The built UI served like a product: gzip, immutable hashed assets under /assets, index.html revalidated."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
NOT_UI = ("/api/", "/metrics", "/docs", "/redoc", "/openapi.json")


class HashedAssets(StaticFiles):
    """Vite's content-hashed files: cacheable for a year, never revalidated."""

    def file_response(self, *args, **kwargs):  # noqa: ANN002, ANN003
        """The file, with Cache-Control immutable."""
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = IMMUTABLE
        return response


class UiGzip:
    """gzip for the UI's responses (assets, index.html); the API and its event streams pass through untouched."""

    def __init__(self, app: ASGIApp, minimum_size: int = 500) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        target = self.gzip if path and not path.startswith(NOT_UI) else self.app
        await target(scope, receive, send)


def mount_ui(app: FastAPI, dist: Path | None) -> None:
    """Serve `dist` (default frontend/dist): /assets immutable, every other page index.html with no-cache; gzip both."""
    dist = dist or Path(__file__).resolve().parents[2] / "frontend" / "dist"
    if not (dist / "index.html").exists():
        return
    app.add_middleware(UiGzip)
    app.mount("/assets", HashedAssets(directory=dist / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False)
    async def _spa(path: str):
        if path.startswith("api/"):
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and dist.resolve() in candidate.parents:
            return FileResponse(candidate, headers={"Cache-Control": NO_CACHE})
        return FileResponse(dist / "index.html", headers={"Cache-Control": NO_CACHE})
