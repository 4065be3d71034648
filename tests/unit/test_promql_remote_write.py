"""Remote write's body (pure): the WriteRequest's wire bytes as Prometheus's remote.proto lays them out, snappy-compressed,
and a point's series with the labels Grafana joins on."""

from __future__ import annotations

from datetime import datetime, timezone

import cramjam

from kneeboard.campaigns.models import Point, SampleRow
from kneeboard import remote_write


def test_the_body_is_remote_protos_wire_format_snappy_compressed():
    body = remote_write.encode([({"a": "b"}, [(1000, 1.0)])])
    # WriteRequest.timeseries(1) { TimeSeries.labels(1) {name(1) "a", value(2) "b"}, samples(2) {value(1) 1.0, timestamp(2) 1000} }
    assert bytes(cramjam.snappy.decompress_raw(body)).hex() == "0a16" "0a060a0161120162" "120c09000000000000f03f10e807"
    sorted_labels = bytes(cramjam.snappy.decompress_raw(remote_write.encode([({"z": "1", "__name__": "m"}, [])])))
    assert sorted_labels.index(b"__name__") < sorted_labels.index(b"z")  # labels sorted by name, as the protocol wants


def test_a_points_series_carry_its_labels_metrics_and_intervals():
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    point = Point(id=7, phase="saturation", variant=None, metrics={"achieved_rate": 1000.0, "loss_pct": 0, "note": "x", "bad": float("nan")},
                  started_at=start, ended_at=start.replace(second=5))
    rows = [SampleRow(point_id=7, series="point", t=start.timestamp() + 1, values={"achieved_rate": 990.5, "rcodes": {"a": 1}})]
    series = remote_write.point_series({"campaign": "3", "plan": "p", "target": "t"}, point, rows)
    names = {labels["__name__"]: (labels, samples) for labels, samples in series}
    assert sorted(names) == ["kneeboard_achieved_rate", "kneeboard_interval_achieved_rate", "kneeboard_loss_pct"]
    labels, samples = names["kneeboard_achieved_rate"]
    assert labels == {"__name__": "kneeboard_achieved_rate", "campaign": "3", "plan": "p", "target": "t", "phase": "saturation",
                      "point": "7"}  # no variant: an empty label is no label to Prometheus
    assert samples == [(int(start.timestamp() * 1000), 1000.0), (int(start.timestamp() * 1000) + 5000, 1000.0)]
    assert names["kneeboard_interval_achieved_rate"][1] == [(int(start.timestamp() * 1000) + 1000, 990.5)]
