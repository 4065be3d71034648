"""The server's service time as the wire shows it: tcpdump on loopback, each request's first data segment to the
first data segment of its answer on the same connection, timestamped by the kernel (nanoseconds).

An outside reference for a load tool's latency floor: a tool's own service time can only add to it (its syscalls,
its parsing, its scheduling), so the difference is what the tool charges the server of its own.

    with Capture(port) as wire:      # tcpdump -i lo on `port`, data segments only
        ...load...
    wire.service_ms()                # [ms], one per answered request
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

# only segments with a payload: the IP total length less both headers
DATA = "(((ip[2:2] - ((ip[0]&0xf)<<2)) - ((tcp[12]&0xf0)>>2)) != 0)"
LINE = re.compile(r"^(\d+\.\d+) IP 127\.0\.0\.1\.(\d+) > 127\.0\.0\.1\.(\d+):")


def tcpdump() -> str:
    """tcpdump's path (`make bench-http` installs it: scripts/install-deps.sh bench)."""
    found = shutil.which("tcpdump") or shutil.which("tcpdump", path="/usr/sbin:/usr/bin")
    if not found:
        raise RuntimeError("tcpdump is not installed: run scripts/install-deps.sh bench (apt-get install tcpdump)")
    return found


class Capture:
    """tcpdump on lo for TCP `port` while the block runs; then `service_ms()`."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.dir = Path(tempfile.mkdtemp(prefix="kb-wire-"))
        self.file = self.dir / "wire.pcap"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Capture:
        argv = [tcpdump(), "-i", "lo", "-n", "-s", "96", "-B", "16384", "--time-stamp-precision=nano", "-w", str(self.file),
                f"tcp port {self.port} and {DATA}"]  # fmt: skip
        self.proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 5
        while not self.file.exists() and time.monotonic() < deadline:  # it opens the file once it listens
            time.sleep(0.05)
        time.sleep(0.2)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        time.sleep(0.2)
        self.proc.terminate()
        _, err = self.proc.communicate(timeout=10)
        dropped = re.search(r"(\d+) packets dropped by kernel", err or "")
        self.dropped = int(dropped.group(1)) if dropped else None

    def service_ms(self) -> list[float]:
        """Per answered request: its answer's first segment minus its own first segment, in ms."""
        text = subprocess.run([tcpdump(), "-r", str(self.file), "-n", "-tt", "--time-stamp-precision=nano"],
                              capture_output=True, text=True, check=True).stdout  # fmt: skip
        asked: dict[str, float] = {}  # client port → when its pending request's first segment passed
        out = []
        for line in text.splitlines():
            m = LINE.match(line)
            if not m:
                continue
            t, src, dst = float(m.group(1)), m.group(2), m.group(3)
            if int(dst) == self.port:
                asked.setdefault(src, t)  # later segments of the same request keep the first one's time
            elif int(src) == self.port and dst in asked:
                out.append((t - asked.pop(dst)) * 1000)  # later segments of the answer find nothing pending
        shutil.rmtree(self.dir, ignore_errors=True)
        return out
