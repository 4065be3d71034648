"""iperf3's parameters: every bound of its own settings lives here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

MAX_STREAMS = 128  # iperf3's own limit for -P
MAX_RATE_BPS = 1e12
MAX_LENGTH = {"tcp": 1024 * 1024, "udp": 65_507}  # -l: TCP buffer / largest UDP payload


class Iperf3Params(BaseModel):
    """iperf3's own parameters; a point's `rate` is the total bitrate (bits/s), divided per stream."""

    model_config = ConfigDict(extra="forbid", strict=True, title="iperf3 parameters")
    protocol: Literal["tcp", "udp"] = Field(default="tcp", title="Protocol")
    reverse: bool = Field(default=False, title="Reverse (server sends, -R)")
    length: int | None = Field(default=None, ge=16, le=MAX_LENGTH["tcp"], title="Length (bytes)",
                               description="-l: UDP datagram payload (≤ 65507) or TCP buffer; empty = iperf3's default")

    @field_validator("length")
    @classmethod
    def _length_fits_protocol(cls, length: int | None, info: ValidationInfo) -> int | None:
        protocol = info.data.get("protocol", "tcp")
        if length is not None and length > MAX_LENGTH[protocol]:
            raise ValueError(f"at most {MAX_LENGTH[protocol]} bytes for {protocol}")
        return length
