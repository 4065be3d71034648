"""`perf script` output → folded stacks ("root;…;leaf count") of one process, names only. Pure: lines in, a Folded out.

The input is `perf script -F comm,tid,time,ip,sym,dso` (perf.script_argv): a header line per sample (`comm tid time:`,
the comm sometimes padded), then one line per frame, leaf first (`ip symbol (dso)`), then a blank line. Samples outside
the window (perf's clock is the wall clock: perf.record_argv) are skipped; of the rest, only those whose comm is the
named process are folded (a comm survives restarts; no pid or path is needed). A frame keeps its symbol's name only: the
address is never kept, an offset (`+0x93`) is cut, a kernel frame is marked `_[k]` (the flame-graph convention), a user
frame perf could not name becomes its object's file name in brackets (`[nginx]`, a stripped binary), and a frame with
neither (`[unknown] ([unknown])`: a stack walked past its end without frame pointers) is dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

KERNEL_MARK = "_[k]"
MAX_FOLDED_BYTES = 1_048_576  # a point's stored CPU profile
FULL = "full stacks"
LEAF_ONLY = "leaf functions only"
LEAF_SHARE = 0.95  # this share of the samples with a user frame having one named user frame at most: "leaf functions only"

_HEADER = re.compile(r"^\s*(?P<comm>\S.*?)\s+(?P<tid>\d+)\s+(?P<time>\d+\.\d+):\s*$")
_FRAME = re.compile(r"^\s*(?P<ip>[0-9a-fA-F]+)\s+(?P<sym>.*?)(?:\s+\((?P<dso>[^()]*)\))?\s*$")
_OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")
_KERNEL_DSOS = ("[kernel.kallsyms]", "[vdso]", "[vsyscall]")
_UNKNOWN = "[unknown]"


@dataclass
class Folded:
    """The folded stacks of one process and what was counted on the way."""

    process: str
    stacks: Counter = field(default_factory=Counter)  # "root;…;leaf" → samples
    samples: int = 0  # the process's samples folded
    all_samples: int = 0  # every sample in the window, of every process
    by_comm: Counter = field(default_factory=Counter)  # samples per command name (what was seen, for a warning)
    user_deep: int = 0  # samples with more than one named user frame
    user_any: int = 0  # samples with at least one named user frame
    first_t: float | None = None
    last_t: float | None = None

    @property
    def stack_depth(self) -> str | None:
        """"full stacks", or "leaf functions only" when the user frames are one deep (a C server built without frame
        pointers: perf's walk stops at the leaf); None without a user frame."""
        if not self.user_any:
            return None
        return LEAF_ONLY if (self.user_any - self.user_deep) >= LEAF_SHARE * self.user_any else FULL


class StackFolder:
    """Feed it `perf script` lines one by one (as they stream); `folded` holds the result so far."""

    def __init__(self, process: str, since: float | None = None, until: float | None = None) -> None:
        self.folded = Folded(process=process)
        self.since, self.until = since, until
        self._frames: list[str] | None = None  # the current sample's frames when it is the process's, leaf first
        self._user_named = 0

    def feed(self, line: str) -> None:
        """One line of `perf script` output (its newline may be left on)."""
        line = line.rstrip("\n")
        if not line.strip():
            self._end_sample()
            return
        if (header := _HEADER.match(line)) is not None:
            self._end_sample()
            self._header(header)
            return
        if self._frames is None:
            return
        match = _FRAME.match(line)
        if match is None:
            return
        name, user_named = frame_name(match["sym"], match["dso"])
        self._user_named += user_named
        if name is not None:
            self._frames.append(name)

    def close(self) -> Folded:
        """End the last sample; the result."""
        self._end_sample()
        return self.folded

    def _header(self, match: re.Match) -> None:
        comm, t = match["comm"], float(match["time"])
        if (self.since is not None and t < self.since) or (self.until is not None and t > self.until):
            return
        folded = self.folded
        folded.all_samples += 1
        folded.by_comm[comm] += 1
        folded.first_t = t if folded.first_t is None else min(folded.first_t, t)
        folded.last_t = t if folded.last_t is None else max(folded.last_t, t)
        if comm == folded.process:
            self._frames, self._user_named = [], 0

    def _end_sample(self) -> None:
        if self._frames is None:
            return
        folded = self.folded
        folded.samples += 1
        folded.user_any += self._user_named > 0
        folded.user_deep += self._user_named > 1
        stack = ";".join(reversed(self._frames)) or f"[{folded.process}]"
        folded.stacks[stack] += 1
        self._frames = None


def frame_name(sym: str, dso: str | None) -> tuple[str | None, bool]:
    """A frame's stored name (None: dropped) and whether it is a user frame perf named."""
    sym = _OFFSET.sub("", sym.strip())
    dso = (dso or "").strip()
    kernel = dso in _KERNEL_DSOS
    if sym and sym != _UNKNOWN:
        sym = sym.replace(";", ":")  # the folded format's separator
        return (sym + KERNEL_MARK, False) if kernel else (sym, True)
    if kernel or not dso or dso == _UNKNOWN:
        return None, False
    return f"[{dso.rsplit('/', 1)[-1]}]", False


def fold(lines, process: str, since: float | None = None, until: float | None = None) -> Folded:
    """Fold a whole `perf script` output (an iterable of lines) for one command name, the samples in [since, until]."""
    folder = StackFolder(process, since, until)
    for line in lines:
        folder.feed(line)
    return folder.close()


@dataclass(frozen=True)
class Capped:
    """Folded text within the size limit: the heaviest stacks kept, and what was left out."""

    text: str
    stacks: int
    samples: int
    dropped_stacks: int
    dropped_samples: int


def cap(stacks: Counter, limit: int = MAX_FOLDED_BYTES) -> Capped:
    """"stack count" lines, heaviest first, as many as fit in `limit` bytes (UTF-8); the rest is counted as dropped."""
    kept: list[str] = []
    size = kept_samples = dropped_stacks = dropped_samples = 0
    for stack, count in sorted(stacks.items(), key=lambda item: (-item[1], item[0])):
        line = f"{stack} {count}\n"
        length = len(line.encode())
        if size + length > limit:
            dropped_stacks += 1
            dropped_samples += count
            continue
        kept.append(line)
        size += length
        kept_samples += count
    return Capped("".join(kept), len(kept), kept_samples, dropped_stacks, dropped_samples)
