"""exporter (monitor): any Prometheus exporter of the target, read by query packs (kneeboard/exporters/packs/).

The adapter is in `adapter`; the scraper process (`scrape`, `fetch`, `select`) imports only light modules, so that
it starts in a tenth of a second even on a busy host (a monitor stopped before it printed anything measures nothing).
"""
