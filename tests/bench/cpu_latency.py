"""Keep the CPUs out of deep idle while a latency benchmark runs, as cyclictest and tuned's latency-performance profile do.

Writing 0 to /dev/cpu_dma_latency (the kernel's PM QoS request) and keeping it open makes the idle governor poll instead of
halting; closing it gives the request back. On this VM (cpuidle driver `haltpoll`) waking a halted vCPU is most of what both
the server and the load tools add to a request at low rates: the wire's p50 at 2,000 req/s was 0.091 ms as the host idled,
0.034 ms with the CPUs held awake, one run after the other (docs/performance/kbhttp-pacing.md).
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Iterator

DEVICE = "/dev/cpu_dma_latency"


@contextlib.contextmanager
def cpus_awake(wanted: bool = True) -> Iterator[str]:
    """Hold the CPUs' wake-up latency at 0 for the block when wanted and allowed; yields what was done, for the report."""
    if not wanted:
        yield "CPUs idle as the host lets them (AWAKE=0)"
        return
    try:
        fd = os.open(DEVICE, os.O_WRONLY)
    except OSError as error:
        yield f"CPUs idle as the host lets them ({DEVICE}: {error.strerror})"
        return
    try:
        os.write(fd, struct.pack("i", 0))
        yield f"CPUs kept out of deep idle for the run ({DEVICE} held at 0, as cyclictest does; AWAKE=0 to measure without)"
    finally:
        os.close(fd)
