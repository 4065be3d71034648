"""The FastAPI application: REST under /api/v1, the built UI at /."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from kneeboard import __version__
from kneeboard.agents.router import router as agents_router
from kneeboard.campaigns.router import router as campaigns_router
from kneeboard.compare.router import router as compare_router
from kneeboard.config import get_settings
from kneeboard.errors import install_handlers
from kneeboard.health import router as health_router
from kneeboard.lab.router import router as lab_router
from kneeboard.plans.router import router as plans_router
from kneeboard.profiles.router import router as profiles_router
from kneeboard.targets.router import router as targets_router


def _name_discriminator(errors: list[dict]) -> list[dict]:
    """Make an unknown `tool` or `kind` name the field itself, not only the enclosing object."""
    for error in errors:
        if error.get("type") in {"union_tag_invalid", "union_tag_not_found"}:
            error["loc"] = (*error["loc"], error.get("ctx", {}).get("discriminator", "").strip("'"))
    return errors


def create_app() -> FastAPI:
    """Build the application."""
    app = FastAPI(title="Kneeboard", version=__version__, description="Capacity-test campaigns: plans, sweeps, reports, comparisons.")
    install_handlers(app)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request, exc: RequestValidationError) -> JSONResponse:
        from fastapi.encoders import jsonable_encoder

        return JSONResponse({"detail": jsonable_encoder(_name_discriminator(list(exc.errors())))}, status_code=422)

    api = APIRouter(prefix="/api/v1")
    for router in (health_router, agents_router, targets_router, plans_router, campaigns_router, compare_router, profiles_router, lab_router):
        api.include_router(router)
    app.include_router(api)
    _mount_ui(app, get_settings().frontend_dist)
    return app


def _mount_ui(app: FastAPI, dist: Path | None) -> None:
    dist = dist or Path(__file__).resolve().parents[2] / "frontend" / "dist"
    if not (dist / "index.html").exists():
        return
    app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False)
    async def _spa(path: str):
        if path.startswith("api/"):
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and dist.resolve() in candidate.parents:
            return FileResponse(candidate)
        return FileResponse(dist / "index.html")


app = create_app()
