"""The FastAPI application: REST under /api/v1, the built UI at /."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from kneeboard import __version__
from kneeboard.agents.router import router as agents_router
from kneeboard.audit.router import router as audit_router
from kneeboard.auth.http import install_security
from kneeboard.auth.router import auth_router, tokens_router, users_router
from kneeboard.campaigns.router import router as campaigns_router
from kneeboard.compare.router import router as compare_router
from kneeboard.config import get_settings
from kneeboard.api_errors import install_handlers
from kneeboard.health import router as health_router
from kneeboard.http_limits import ids_in_range, install_limits
from kneeboard.lab.router import router as lab_router
from kneeboard.plans.router import router as plans_router
from kneeboard.policy.router import router as policy_router
from kneeboard.profiles.router import router as profiles_router
from kneeboard.runs import reaper
from kneeboard.runs.router import router as runs_router
from kneeboard.targets.router import router as targets_router
from kneeboard.tools.router import router as tools_router
from kneeboard.worker.tasks import enqueue


def create_app() -> FastAPI:
    """Build the application."""
    app = FastAPI(title="Kneeboard", version=__version__, description="Capacity-test campaigns: plans, sweeps, reports, comparisons.",
                  lifespan=reaper.lifespan)
    install_handlers(app)
    install_limits(app)
    install_security(app)
    app.state.dispatch = enqueue

    api = APIRouter(prefix="/api/v1", dependencies=[Depends(ids_in_range)])
    for router in (health_router, agents_router, targets_router, plans_router, campaigns_router, compare_router, profiles_router, lab_router, policy_router):
        api.include_router(router)
    for router in (auth_router, tokens_router, users_router, audit_router, tools_router, runs_router):
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
