"""Results out: after a campaign settles, each completed point's metrics and each of its intervals are sent by Prometheus
remote write (protocol 1.0: a snappy-compressed protobuf WriteRequest) to every registered Prometheus marked
`remote_write`, so the team's Grafana shows the load beside their servers.

Series: `kneeboard_<metric>` per point (one sample at the point's start and one at its end) and
`kneeboard_interval_<value>` per interval, labelled campaign, plan, target, phase, point (its id) and variant (when
the campaign has variants: an empty label is no label to Prometheus). The destination is checked against the Prometheus allow-list and connected to at the checked address, no
redirect followed; what happened (never the credential) goes to the audit log. Nothing here fails the campaign.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from datetime import datetime

import cramjam
import httpx
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from sqlalchemy import select

from kneeboard.audit.service import record
from kneeboard.campaigns.models import Campaign, Point, SampleRow
from kneeboard.db import session_scope
from kneeboard.promql import service
from kneeboard.promql.client import TIMEOUT_S
from kneeboard.promql.models import PrometheusServer
from kneeboard.states import PointStatus
from kneeboard.outbound.allowlist import pinned_target

log = logging.getLogger(__name__)
MAX_SERIES = 20_000  # a campaign's series per destination; the rest are not sent (said in the audit entry)
BATCH = 2_000  # series per request
Labels = dict[str, str]


def _message_classes():
    """WriteRequest, TimeSeries, Label and Sample of Prometheus's remote.proto / types.proto (the fields remote write 1.0
    reads), built at run time from their description: the protobuf library encodes them, no generated code."""
    proto = descriptor_pb2.FileDescriptorProto(name="kneeboard/prometheus_remote.proto", package="kneeboard.prometheus", syntax="proto3")
    field = descriptor_pb2.FieldDescriptorProto
    shapes = {"Label": [("name", 1, field.TYPE_STRING, None), ("value", 2, field.TYPE_STRING, None)],
              "Sample": [("value", 1, field.TYPE_DOUBLE, None), ("timestamp", 2, field.TYPE_INT64, None)],
              "TimeSeries": [("labels", 1, field.TYPE_MESSAGE, "Label"), ("samples", 2, field.TYPE_MESSAGE, "Sample")],
              "WriteRequest": [("timeseries", 1, field.TYPE_MESSAGE, "TimeSeries")]}
    for name, fields in shapes.items():
        message = proto.message_type.add(name=name)
        for field_name, number, kind, of in fields:
            message.field.add(name=field_name, number=number, type=kind, type_name=f".kneeboard.prometheus.{of}" if of else None,
                              label=field.LABEL_REPEATED if of else field.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("kneeboard.prometheus.WriteRequest"))


WriteRequest = _message_classes()


def encode(series: list[tuple[Labels, list[tuple[int, float]]]]) -> bytes:
    """A WriteRequest of these series (labels sorted by name, as the protocol wants), snappy block-compressed."""
    request = WriteRequest()
    for labels, samples in series:
        one = request.timeseries.add()
        for name in sorted(labels):
            one.labels.add(name=name, value=labels[name])
        for timestamp_ms, value in sorted(samples):
            one.samples.add(value=value, timestamp=timestamp_ms)
    return bytes(cramjam.snappy.compress_raw(request.SerializeToString()))


def metric_name(prefix: str, key: str) -> str:
    """`kneeboard_` + prefix + the key with anything outside [a-zA-Z0-9_] as `_`."""
    return "kneeboard_" + prefix + re.sub(r"[^a-zA-Z0-9_]", "_", key)


def _ms(when: datetime | float) -> int:
    return int((when.timestamp() if isinstance(when, datetime) else when) * 1000)


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def point_series(base: Labels, point: Point, intervals: list[SampleRow]) -> list[tuple[Labels, list[tuple[int, float]]]]:
    """One point's series: each numeric metric at its start and end, each interval's numeric values at their time."""
    labels = {**base, "phase": point.phase, "point": str(point.id), **({"variant": point.variant} if point.variant else {})}
    span = [_ms(point.started_at), _ms(point.ended_at)] if point.started_at and point.ended_at else []
    found = [({**labels, "__name__": metric_name("", key)}, [(t, float(value)) for t in span])
             for key, value in sorted((point.metrics or {}).items()) if _finite(value) and span]
    by_key: dict[str, list[tuple[int, float]]] = {}
    for row in intervals:
        for key, value in (row.values or {}).items():
            if _finite(value):
                by_key.setdefault(key, []).append((_ms(row.t), float(value)))
    return found + [({**labels, "__name__": metric_name("interval_", key)}, samples) for key, samples in sorted(by_key.items())]


def campaign_series(campaign: Campaign, intervals: dict[int, list[SampleRow]]) -> list[tuple[Labels, list[tuple[int, float]]]]:
    """Every completed point's series (see point_series), labelled with the campaign, its plan's and target's names."""
    base = {"campaign": str(campaign.id), "plan": str((campaign.plan or {}).get("name", "")), "target": str((campaign.target or {}).get("name", ""))}
    return [s for p in campaign.points if p.status == PointStatus.COMPLETED for s in point_series(base, p, intervals.get(p.id, []))]


@dataclass(frozen=True)
class _Destination:
    id: int
    name: str
    url: str
    address: str
    headers: dict[str, str]


def _push(to: _Destination, body: bytes) -> None:
    """POST one compressed WriteRequest; RuntimeError saying why when it was not taken (2xx)."""
    url, host, extensions = pinned_target(f"{to.url}/api/v1/write", to.address)
    headers = {**host, **to.headers, "Content-Encoding": "snappy", "Content-Type": "application/x-protobuf",
               "X-Prometheus-Remote-Write-Version": "0.1.0", "User-Agent": "Kneeboard-RemoteWrite/1"}
    with httpx.Client(follow_redirects=False, timeout=TIMEOUT_S, trust_env=False) as client:
        answer = client.post(url, content=body, headers=headers, extensions=extensions)
    if not answer.is_success:
        moved = " (a redirect: not followed)" if answer.is_redirect else ""
        raise RuntimeError(f"answered HTTP {answer.status_code}{moved}: {answer.text[:200]}")


def after_campaign(campaign_id: int) -> None:
    """Send a settled campaign's results to every remote-write Prometheus, each outcome in the audit log; never raises."""
    try:
        with session_scope() as session:
            rows = list(session.scalars(select(PrometheusServer).where(PrometheusServer.remote_write.is_(True))))
            campaign = session.get(Campaign, campaign_id) if rows else None
            if campaign is None:
                return
            ids = [p.id for p in campaign.points]
            intervals: dict[int, list[SampleRow]] = {}
            for row in session.scalars(select(SampleRow).where(SampleRow.point_id.in_(ids), SampleRow.series == "point")):
                intervals.setdefault(row.point_id, []).append(row)
            series = campaign_series(campaign, intervals)
            destinations = []
            for row in rows:
                try:
                    destinations.append(_Destination(row.id, row.name, row.url, service.ALLOWLIST.check(row.url, session=session)[0],
                                                     service.authorization(row)))
                except Exception as exc:  # noqa: BLE001 - refused by the allow-list: said in the audit log
                    _audit(row.id, row.name, campaign_id, 0, str(exc))
    except Exception:  # noqa: BLE001 - the campaign is settled whatever happens here
        log.exception("remote write after campaign %s: could not read it", campaign_id)
        return
    for to in destinations:
        error = None
        try:
            for at in range(0, min(len(series), MAX_SERIES), BATCH):
                _push(to, encode(series[at:min(at + BATCH, MAX_SERIES)]))
        except (httpx.HTTPError, RuntimeError) as exc:
            error = f"{type(exc).__name__}: {str(exc)[:300]}"
            log.warning("remote write of campaign %s to Prometheus %s failed: %s", campaign_id, to.name, error)
        if len(series) > MAX_SERIES and error is None:
            error = f"{len(series) - MAX_SERIES} series over the cap of {MAX_SERIES} not sent"
        _audit(to.id, to.name, campaign_id, min(len(series), MAX_SERIES), error)


def _audit(server_id: int, name: str, campaign_id: int, sent: int, error: str | None) -> None:
    try:
        with session_scope() as session:
            record(session, "kneeboard", "remote_write" if error is None else "remote_write_failed", "prometheus", server_id, name, None,
                   {"campaign_id": campaign_id, "series": sent, "error": error})
    except Exception:  # noqa: BLE001 - an audit outage must not touch the campaign
        log.exception("remote write audit entry for campaign %s failed", campaign_id)
