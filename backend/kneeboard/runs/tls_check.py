"""A TLS handshake of Kneeboard's own before a point whose tool does not verify the server's certificate (dnsperf 2.10's
dot and doh: no verification, no SNI). It goes to the pinned address and port the tool will load, sends the target's
name as SNI and checks the certificate against it (the address when the target is one), trusting the lab's
certificates for the lab's address and the system's CA bundle otherwise. A certificate that does not verify, or a
handshake that fails, refuses the point with the reason; one that verifies is recorded on the point with a warning
that the tool itself does not verify (a server changing its certificate during the point would not be seen)."""

from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass, field
from datetime import UTC, datetime

from kneeboard.lab import coredns, namespace, nginx
from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.contract import ToolAdapter
from kneeboard.tools.units import host_port

TIMEOUT_S = 5.0
SYSTEM_CA = "the system's CA bundle"
LAB_CA = "the lab's certificates"
PLAN_CA = "the plan's CA bundle (ca_pem)"
NOBODY = "nothing: tls_skip_verify"


@dataclass(frozen=True)
class Checked:
    """The check's outcome: why the point is refused, or what was verified (None: nothing to check)."""

    refused: str | None = None
    record: dict | None = None
    warnings: list[str] = field(default_factory=list)


def check(tool: ToolAdapter, spec: PointSpec) -> Checked:
    """Verify the certificate at the TLS port `tool` connects to without verifying, for a point already pinned."""
    try:
        port = tool.unverified_tls_port(spec)
    except ToolInputError:
        return Checked()  # building the command says what is wrong with the parameters
    if port is None:
        return Checked()
    name = spec.host_name or spec.host
    params = tool.read_params(spec.params)
    skip = getattr(params, "tls_skip_verify", False)
    ca_pem, trusted = (None, NOBODY) if skip else trust(spec.host, getattr(params, "ca_pem", None))
    where = f"{host_port(spec.host, port)} (as {name}, trusting {trusted})"
    try:
        record = handshake(spec.host, port, name, ca_pem, verify=not skip)
    except ssl.SSLCertVerificationError as exc:
        return Checked(refused=f"TLS certificate at {where} failed verification: {exc.verify_message or exc.reason}; "
                               f"{tool.name} does not verify certificates itself, so Kneeboard does and the point was not run")
    except (OSError, ssl.SSLError) as exc:
        return Checked(refused=f"TLS check of {where} before the point failed: {exc}")
    record |= {"address": spec.host, "port": port, "name": name, "trusted": trusted, "verified": not skip}
    if skip:
        return Checked(record=record, warnings=[
            f"TLS certificate verification was skipped (tls_skip_verify): neither {tool.name} nor Kneeboard checked the "
            f"server's identity at {host_port(spec.host, port)} ({record['tls_version']})"])
    said = (f"{tool.name} does not verify the server's certificate itself (dnsperf 2.10: no verification, no SNI); Kneeboard "
            f"verified it once before the point: {where}, {record['tls_version']}, valid until {record['not_after']}")
    return Checked(record=record, warnings=[said])


def trust(address: str, ca_pem: str | None = None) -> tuple[str | None, str]:
    """The CA certificates to trust for `address` (PEM, None: the system's) and their description: the plan's
    bundle when it gives one, else the lab's for the lab's address, else the system's."""
    if ca_pem:
        return ca_pem, PLAN_CA
    if address == namespace.LAB_ADDR:
        workdir = namespace.lab_workdir()
        found = [pem for pem in (coredns.certificate_pem(workdir / "coredns"), nginx.certificate_pem(workdir / "http")) if pem]
        if found:
            return "".join(found), LAB_CA
    return None, SYSTEM_CA


def handshake(address: str, port: int, name: str, ca_pem: str | None, timeout_s: float = TIMEOUT_S, verify: bool = True) -> dict:
    """A TLS handshake with address:port sending `name` as SNI (none for an address) and, when `verify`, checking the
    certificate against it; the protocol version, subject, issuer and expiry. Raises ssl.SSLError or OSError."""
    context = ssl.create_default_context(cadata=ca_pem) if ca_pem else ssl.create_default_context()
    if not verify:
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection((address, port), timeout=timeout_s) as raw, context.wrap_socket(raw, server_hostname=name) as tls:
        cert = tls.getpeercert() or {}  # {} when not verified: nothing of it was checked
        version = tls.version()
    expires = datetime.fromtimestamp(ssl.cert_time_to_seconds(cert["notAfter"]), UTC) if cert.get("notAfter") else None
    return {"tls_version": version, "subject": _name(cert.get("subject")), "issuer": _name(cert.get("issuer")),
            "not_after": expires.isoformat(timespec="seconds") if expires else None}


def _name(parts) -> str | None:  # noqa: ANN001 - getpeercert's ((("commonName", "x"),), ...)
    return ", ".join(f"{key}={value}" for rdn in parts for key, value in rdn) if parts else None

