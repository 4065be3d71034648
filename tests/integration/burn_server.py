"""A UDP DNS server whose CPU cost per query is known by construction: each query burns BURN_MS of the thread's own CPU
(a busy loop measured by time.thread_time) and is answered with itself as a response (QR set, NOERROR, no records).

    python tests/integration/burn_server.py PORT BURN_MS [ADDRESS [COMM]]

Its command name is `kb-burn` (written to /proc/self/comm), or COMM, so the process monitor finds it by name; it
listens on 127.0.0.1, or ADDRESS. One thread: the
only other CPU a query costs is its recvfrom and sendto. Prints "ready" once bound; runs until killed."""

from __future__ import annotations

import socket
import sys
import time

COMM = "kb-burn"


def burn(seconds: float) -> None:
    """Spin until this thread has used `seconds` of CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def answer(query: bytes) -> bytes:
    """The query as a response: QR and RA set, rcode NOERROR, the question kept."""
    return query[:2] + bytes([query[2] | 0x80, 0x80]) + query[4:]


def main(port: int, burn_ms: float, address: str = "127.0.0.1", name: str = COMM) -> None:
    """Serve on address:port until killed."""
    with open("/proc/self/comm", "w") as comm:
        comm.write(name)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((address, port))
    print("ready", flush=True)
    while True:
        query, peer = sock.recvfrom(2048)
        if len(query) < 12:
            continue
        burn(burn_ms / 1000.0)
        sock.sendto(answer(query), peer)


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), *sys.argv[3:5])
