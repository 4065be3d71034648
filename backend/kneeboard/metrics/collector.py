"""Figures read from the database at scrape time: campaigns, points, queue, agents, live samples."""

from __future__ import annotations

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select

from kneeboard.agents.models import Agent
from kneeboard.agents.service import is_alive
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.db import as_utc, session_scope, utcnow
from kneeboard.metrics.live import LiveSamples
from kneeboard.states import CampaignStatus, PointStatus

DURATION_BUCKETS = (1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600)


def duration_histogram(durations: list[float], buckets: tuple[float, ...] = DURATION_BUCKETS) -> tuple[list[tuple[str, float]], float]:
    """Cumulative Prometheus buckets (with +Inf) and the sum of `durations`."""
    counts = [(f"{b:g}", float(sum(1 for d in durations if d <= b))) for b in buckets]
    return counts + [("+Inf", float(len(durations)))], float(sum(durations))


class DatabaseCollector(Collector):
    """Collects the database figures on each scrape (one short read transaction)."""

    def __init__(self, live: LiveSamples) -> None:
        self.live = live

    def describe(self):
        """Nothing up front: registering must not touch the database (the app starts without one)."""
        return []

    def collect(self):
        """Yield every database-backed metric family."""
        with session_scope() as session:
            by_status = dict(session.execute(select(Campaign.status, func.count()).group_by(Campaign.status)).all())
            points = dict(session.execute(select(Point.status, func.count()).group_by(Point.status)).all())
            queued = session.execute(select(Campaign.agent, func.count()).where(Campaign.status == CampaignStatus.QUEUED).group_by(Campaign.agent)).all()
            spans = session.execute(select(Point.started_at, Point.ended_at).where(
                Point.status.in_([PointStatus.COMPLETED, PointStatus.FAILED]), Point.started_at.is_not(None), Point.ended_at.is_not(None))).all()
            agents = list(session.scalars(select(Agent)))
            running = dict(session.execute(select(Campaign.id, Campaign.tool).where(Campaign.status == CampaignStatus.RUNNING)).all())
            now = utcnow()
            beats = [(a.name, is_alive(a), (now - as_utc(a.last_heartbeat)).total_seconds()) for a in agents]
        yield from self._campaigns(by_status, points, queued)
        yield from self._durations([(as_utc(end) - as_utc(start)).total_seconds() for start, end in spans])
        yield from self._agents(beats)
        yield from self._live(running)

    def _campaigns(self, by_status: dict, points: dict, queued: list) -> list:
        campaigns = GaugeMetricFamily("kneeboard_campaigns", "Campaigns by status", labels=["status"])
        for status in CampaignStatus:
            campaigns.add_metric([status.value], by_status.get(status.value, 0))
        runs = CounterMetricFamily("kneeboard_points", "Points that ended, by status", labels=["status"])
        for status in (PointStatus.COMPLETED, PointStatus.FAILED, PointStatus.CANCELLED, PointStatus.CRASHED):
            runs.add_metric([status.value], points.get(status.value, 0))
        pending = GaugeMetricFamily("kneeboard_points_pending", "Points not run yet or running", labels=["status"])
        for status in (PointStatus.PENDING, PointStatus.RUNNING):
            pending.add_metric([status.value], points.get(status.value, 0))
        depth = GaugeMetricFamily("kneeboard_queue_depth", "Campaigns queued on each agent", labels=["agent"])
        for agent, count in queued:
            depth.add_metric([agent], count)
        total = GaugeMetricFamily("kneeboard_queue_depth_total", "Campaigns queued on all agents")
        total.add_metric([], sum(count for _, count in queued))
        return [campaigns, runs, pending, depth, total]

    def _durations(self, durations: list[float]) -> list:
        histogram = HistogramMetricFamily("kneeboard_point_duration_seconds", "Wall time of points that completed or failed")
        buckets, total = duration_histogram(durations)
        histogram.add_metric([], buckets, total)
        return [histogram]

    def _agents(self, beats: list[tuple[str, bool, float]]) -> list:
        alive = GaugeMetricFamily("kneeboard_agents_alive", "Agents heard from within three heartbeat periods")
        alive.add_metric([], sum(1 for _, ok, _ in beats if ok))
        age = GaugeMetricFamily("kneeboard_agent_heartbeat_age_seconds", "Seconds since each agent's last heartbeat", labels=["agent"])
        for name, _, seconds in beats:
            age.add_metric([name], max(seconds, 0.0))
        return [alive, age]

    def _live(self, running: dict[int, str]) -> list:
        from kneeboard.tools.registry import adapter

        gauge = GaugeMetricFamily("kneeboard_live_point_metric", "Latest live sample of each running point",
                                  labels=["campaign_id", "point_id", "tool", "metric", "headline"])  # fmt: skip
        for (campaign_id, point_id), values in sorted(self.live.current().items()):
            tool = running.get(campaign_id)
            if tool is None:
                continue
            headline = adapter(tool).headline.name if adapter(tool).headline else None
            for metric, value in values.items():
                gauge.add_metric([str(campaign_id), str(point_id), tool, metric, str(metric == headline).lower()], value)
        return [gauge]
