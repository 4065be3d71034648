"""Capacity-test analysis: pure functions over a campaign's points (no I/O, no web, no DB).

A point is a dict::

    {"phase": "baseline"|"scalability"|"saturation"|"stability"|"custom",
     "concurrency": int, "offered_rate": float|None, "achieved_rate": float|None,
     "latency_avg_ms": float|None, "latency_stddev_ms": float|None,
     "loss_pct": float|None, "repeat": int, "status": "completed"|"failed"|…,
     "variant": str|None}

Samples (the stability point's interval series) are dicts {"t", "achieved_rate",
"latency_avg_ms"}, either metric possibly None. The whole report of a campaign (this analysis with the server's
evidence) is kneeboard/report.py's :func:`analyse`.
"""

from .knee import ceiling, find_knee, requests_in_flight, saturation_onset
from .points import baseline_latency, derived, efficiency, inflight, split_by_variant
from .capacity import capacity_at_slo
from .repeats import bootstrap_ci, summarise_repeats
from .verdicts import compare
from .seed_csv import ImportFormatError, parse_seed_csv
from .stability import drift, oscillation, oscillation_details
from .usl import fit_usl, usl_peak, usl_throughput
from .zones import sla_zones

__all__ = [
    "ImportFormatError",
    "baseline_latency",
    "bootstrap_ci",
    "capacity_at_slo",
    "ceiling",
    "compare",
    "derived",
    "drift",
    "efficiency",
    "find_knee",
    "fit_usl",
    "inflight",
    "requests_in_flight",
    "saturation_onset",
    "oscillation",
    "oscillation_details",
    "parse_seed_csv",
    "sla_zones",
    "split_by_variant",
    "summarise_repeats",
    "usl_peak",
    "usl_throughput",
]
