"""The /metrics route (bearer token or session required) and the API request-latency middleware."""

from __future__ import annotations

import time

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from starlette.types import ASGIApp, Receive, Scope, Send

from kneeboard.auth.errors import Unauthenticated
from kneeboard.auth.http import authenticate
from kneeboard.metrics.collector import DatabaseCollector
from kneeboard.metrics.live import live_samples

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class LatencyMiddleware:
    """Times every HTTP request, labelled with its route template (not the raw path) and status."""

    def __init__(self, app: ASGIApp, histogram: Histogram) -> None:
        self.app = app
        self.histogram = histogram

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, status = time.perf_counter(), [500]

        async def keep_status(message) -> None:  # noqa: ANN001
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, keep_status)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            self.histogram.labels(scope["method"], route, str(status[0])).observe(time.perf_counter() - started)


def install_metrics(app: FastAPI) -> None:
    """Add the request-latency middleware and GET /metrics (call before the UI's catch-all route)."""
    registry = CollectorRegistry()
    latency = Histogram("kneeboard_api_request_duration_seconds", "API request latency", ["method", "route", "status"],
                        buckets=LATENCY_BUCKETS, registry=registry)  # fmt: skip
    registry.register(DatabaseCollector(live_samples))
    app.add_middleware(LatencyMiddleware, histogram=latency)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus text exposition; needs `Authorization: Bearer <token>` (or a signed-in session)."""
        if await run_in_threadpool(authenticate, request.scope) is None:
            raise Unauthenticated("send Authorization: Bearer <token> to read /metrics")
        live_samples.start()
        return Response(await run_in_threadpool(generate_latest, registry), media_type=CONTENT_TYPE_LATEST)
