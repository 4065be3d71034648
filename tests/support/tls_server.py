"""A throwaway TLS listener on loopback with a self-signed certificate made for it (openssl, as the lab makes its own):
it completes handshakes and closes; for checking what a client makes of a certificate."""

from __future__ import annotations

import socket
import ssl
import threading
from pathlib import Path

from kneeboard.lab import nginx


class TlsServer:
    """Listens on 127.0.0.1 (a free port) with a certificate for `name` and 127.0.0.1; `pem` is that certificate."""

    def __init__(self, folder: Path, name: str = "www.example.lab") -> None:
        cert, key = nginx.generate_certificate("127.0.0.1", folder, name)
        self.pem = cert.read_text()
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> TlsServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close alone does not on Linux)
        except OSError:
            pass
        self.listener.close()
        self.thread.join(timeout=5)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # closed
            conn.settimeout(5)
            try:
                self.context.wrap_socket(conn, server_side=True).close()
            except (OSError, ssl.SSLError):
                conn.close()  # the client refused the certificate: what the tests look at
