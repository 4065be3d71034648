"""The FastAPI application: REST under /api/v1, the built UI at /."""

from __future__ import annotations

import gc

from fastapi import APIRouter, Depends, FastAPI

from kneeboard import __version__
from kneeboard.agentlink.router import router as agentlink_router
from kneeboard.observers.router import router as observers_router
from kneeboard.agents.router import router as agents_router
from kneeboard.audit.router import router as audit_router
from kneeboard.auth.deps import require
from kneeboard.auth.http import install_security
from kneeboard.auth.router import auth_router, tokens_router, users_router
from kneeboard.campaigns.router import router as campaigns_router
from kneeboard.streams.router import router as streams_router
from kneeboard.compare.router import router as compare_router
from kneeboard.config import get_settings
from kneeboard.exports.router import router as exports_router
from kneeboard.extensions import register_all
from kneeboard.failover.router import router as failover_router
from kneeboard.api_errors import install_handlers
from kneeboard.health import router as health_router
from kneeboard.http_limits import ids_in_range, install_limits
from kneeboard.lab.router import router as lab_router
from kneeboard.latency.router import router as latency_router
from kneeboard.metrics.http import install_metrics
from kneeboard.plans.router import router as plans_router
from kneeboard.policy.router import router as policy_router
from kneeboard.profiles.router import router as profiles_router
from kneeboard.profiling.router import router as cpu_profiles_router
from kneeboard.promql.router import router as promql_router
from kneeboard.runs import harness_cpu, reaper
from kneeboard.runs.router import router as runs_router
from kneeboard.schedules.router import router as schedules_router
from kneeboard.shares.router import router as shares_router
from kneeboard.exporters.router import router as exporters_router
from kneeboard.targets.router import router as targets_router
from kneeboard.toolinfo.router import router as tools_router
from kneeboard.trends.router import router as trends_router
from kneeboard.ui import mount_ui
from kneeboard.webhooks.delivery import with_delivery
from kneeboard.webhooks.router import router as webhooks_router
from kneeboard.worker.tasks import enqueue


def create_app() -> FastAPI:
    """Build the application."""
    register_all()
    app = FastAPI(title="Kneeboard", version=__version__, description="Capacity-test campaigns: plans, sweeps, reports, comparisons.",
                  lifespan=with_delivery(harness_cpu.with_api_pid(reaper.lifespan)))
    install_handlers(app)
    install_limits(app)
    install_security(app)
    app.state.dispatch = enqueue

    api = APIRouter(prefix="/api/v1", dependencies=[Depends(ids_in_range)])
    for router in (
        health_router, agents_router, targets_router, plans_router, campaigns_router, compare_router, profiles_router, lab_router,
        policy_router, latency_router, auth_router, tokens_router, users_router, tools_router, runs_router,
        schedules_router, shares_router, streams_router,
        agentlink_router, observers_router,
        exports_router,
        trends_router,
        webhooks_router,
        exporters_router,
        promql_router,
        cpu_profiles_router,
        failover_router,
    ):
        api.include_router(router)
    api.include_router(audit_router, dependencies=[Depends(require("admin"))])  # the audit log: admins only
    app.include_router(api)
    install_metrics(app)
    mount_ui(app, get_settings().frontend_dist)
    return app


app = create_app()
gc.freeze()  # the import-time heap leaves the collector's view: no 80-110 ms gen-2 pauses inside requests
