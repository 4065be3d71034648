"""A DNS server for one name with TTL 0 whose answer the test flips: the address a policy check sees first, then
another one, as a name with a short TTL can do between a check and a tool's own lookup."""

from __future__ import annotations

import socket
import threading

import dns.message
import dns.name
import dns.rdatatype
import dns.rrset


class FlipDNS:
    """Answers A queries for `name` with `address` (TTL 0) on 127.0.0.1:port; `flip(to)` changes the answer."""

    def __init__(self, name: str, address: str) -> None:
        self.name, self.address, self.queries = dns.name.from_text(name), address, []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def flip(self, address: str) -> None:
        """Answer `address` from now on."""
        self.address = address

    def _serve(self) -> None:
        while not self.done.is_set():
            try:
                wire, peer = self.sock.recvfrom(4096)
            except TimeoutError:
                continue
            query = dns.message.from_wire(wire)
            reply = dns.message.make_response(query)
            question = query.question[0]
            self.queries.append((dns.rdatatype.to_text(question.rdtype), self.address))
            if question.name == self.name and question.rdtype == dns.rdatatype.A:
                reply.answer.append(dns.rrset.from_text(question.name, 0, "IN", "A", self.address))
            self.sock.sendto(reply.to_wire(), peer)

    def __enter__(self) -> FlipDNS:
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.done.set()
        self.thread.join(timeout=2)
        self.sock.close()
