"""The CPU profile API's bodies (a plan's CPU profile setting is the leaf cpu_profile_setting.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kneeboard.profiling.folding import MAX_FOLDED_BYTES


class CpuProfileSummary(BaseModel):
    """What a point's CPU profile holds (without its stacks)."""

    point_id: int
    process: str
    frequency_hz: int
    window_s: float = Field(description="the steady window profiled (seconds)")
    samples: int = Field(description="the process's samples in the window")
    all_samples: int = Field(description="samples of every process in the window")
    cpu_pct: float | None = Field(description="the process's CPU over the window, % of one CPU (samples / frequency / window)")
    requests: float | None = Field(description="requests completed in the window (the point's completed × window / duration)")
    per_1k: float | None = Field(description="the process's samples per 1,000 requests")
    stack_depth: str | None = Field(description='"full stacks", or "leaf functions only" (a server without frame pointers)')
    stacks: int
    dropped_stacks: int = Field(description=f"stacks left out to keep the stored profile within {MAX_FOLDED_BYTES:,} bytes (the lightest)")
    dropped_samples: int


class FoldedProfile(CpuProfileSummary):
    """A point's CPU profile: folded stacks, "root;…;leaf count" a line, heaviest first."""

    folded: str


class FunctionCost(BaseModel):
    """One function's samples: as the leaf (self) and anywhere on the stack (total)."""

    function: str
    self_samples: int
    total_samples: int
    self_pct: float
    total_pct: float
    self_per_1k: float | None
    total_per_1k: float | None


class TopFunctions(BaseModel):
    """A point's top functions by self or total samples."""

    profile: CpuProfileSummary
    by: str
    functions: list[FunctionCost]


class _Change(BaseModel):
    total_per_1k_a: float
    total_per_1k_b: float
    total_per_1k_change: float
    total_pct_a: float
    total_pct_b: float
    total_pct_change: float


class FunctionChange(_Change):
    """A function's samples per 1,000 requests and share in A and B (total and self) and their change (B − A)."""

    function: str
    self_per_1k_a: float
    self_per_1k_b: float
    self_per_1k_change: float
    self_pct_a: float
    self_pct_b: float
    self_pct_change: float


class FrameChange(_Change):
    """A flame-graph frame (a function reached by one path, `path` root first) and its change."""

    frame: str
    path: str


class StackPair(BaseModel):
    """One stack's samples per 1,000 requests in A and B (a differential flame graph's input)."""

    stack: str
    per_1k_a: float
    per_1k_b: float


class CpuProfileDiff(BaseModel):
    """Point B's CPU profile against point A's, per 1,000 requests and as a share of each one's samples."""

    a: CpuProfileSummary
    b: CpuProfileSummary
    sign: str = Field(default="B − A per 1,000 requests, A the reference", description="how every change is signed")
    ranked_by: Literal["self", "total"] = Field(default="self", description="what `functions` is ranked by")
    functions: list[FunctionChange] = Field(description="largest change of self samples per 1,000 requests first (what grew in "
                                            "itself, as perf diff and pprof rank)")
    functions_by_total: list[FunctionChange] = Field(default_factory=list, description="the second view: largest change of total "
                                                     "samples per 1,000 requests first")
    frames: list[FrameChange] = Field(description="largest change per 1,000 requests first")
    stacks: list[StackPair]
