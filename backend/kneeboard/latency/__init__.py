"""Latency distributions: a point's stored HDR histogram, decoded for a chart."""
