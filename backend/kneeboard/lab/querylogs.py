"""The lab DNS servers' query logs, emptied before each point against that server, so a campaign's logs stay the size of
one point's queries instead of growing for the whole campaign (they are on disk, but a long campaign at 100,000 q/s
writes gigabytes). Each is truncated in place, never removed: CoreDNS's stdout and named's log channel are files the
server keeps open with O_APPEND (its next line goes to the new end, offset 0), and AdGuard Home opens its query log
with O_APPEND at each flush. AdGuard keeps up to 1,000 entries in memory between flushes: those of the previous point
still in memory land in the emptied file at its next flush."""

from __future__ import annotations

import os
from pathlib import Path

from kneeboard.lab import adguard, bind, coredns, namespace

# lab service → its query log, relative to the lab's workdir (present only while a configuration with a log has run)
QUERY_LOGS: dict[str, Path] = {
    coredns.SERVICE: Path("coredns") / coredns.QUERY_LOG,
    adguard.SERVICE: Path("adguard") / "data" / adguard.QUERY_LOG,
    bind.SERVICE: Path("bind") / bind.QUERY_LOG,
}

OTHER_PORTS = {coredns.SERVICE: (coredns.DOT_PORT, coredns.DOH_PORT)}  # the same server (and log) over DoT and DoH


def empty_before_point(host: str, port: int) -> dict | None:
    """Empty the query log of the lab server at host:port, if it is one and has a log on disk; what was done
    ({service, file, bytes} or {service, file, error}), None when there was nothing to empty."""
    if host != namespace.LAB_ADDR:
        return None
    records = {name: namespace.service_record(name) for name in QUERY_LOGS}
    service = next((name for name, record in records.items() if record and port in (record.get("port"), *OTHER_PORTS.get(name, ()))), None)
    if service is None:
        return None
    path = namespace.lab_workdir() / QUERY_LOGS[service]
    try:
        size = path.stat().st_size
        os.truncate(path, 0)
    except FileNotFoundError:
        return None
    except OSError as exc:  # e.g. a worker that is not root, beside a lab `make up` started as root
        return {"service": service, "file": str(path), "error": f"could not empty it: {exc}"}
    return {"service": service, "file": str(path), "bytes": size}
