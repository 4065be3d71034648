"""Exporters: the Prometheus endpoints a target lists, and the query packs (data files) that read them."""
